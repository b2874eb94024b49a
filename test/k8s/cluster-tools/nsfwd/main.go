// Command nsfwd forwards a loopback port of the current network namespace to an address inside another one, so
// tools outside test/k8s/cluster.sh's namespace reach its API server (and Services) without any address of the
// cluster existing outside it.
//
//	nsfwd <netns path> <listen address> <target address> <port file>
//
// It listens on <listen address> (port 0: any free port), writes the port it got to <port file> once it accepts
// connections, and dials <target address> from inside the namespace for each connection.
package main

import (
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"runtime"
	"strconv"

	"golang.org/x/sys/unix"
)

func main() {
	if len(os.Args) != 5 {
		fmt.Fprintln(os.Stderr, "usage: nsfwd <netns path> <listen address> <target address> <port file>")
		os.Exit(2)
	}
	netns, listen, target, portFile := os.Args[1], os.Args[2], os.Args[3], os.Args[4]
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		log.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	if err := os.WriteFile(portFile+".tmp", []byte(strconv.Itoa(port)+"\n"), 0o644); err != nil {
		log.Fatal(err)
	}
	if err := os.Rename(portFile+".tmp", portFile); err != nil {
		log.Fatal(err)
	}
	for {
		conn, err := ln.Accept()
		if err != nil {
			log.Fatal(err)
		}
		go forward(conn, netns, target)
	}
}

func forward(conn net.Conn, netns, target string) {
	defer conn.Close()
	upstream, err := dialIn(netns, target)
	if err != nil {
		log.Printf("dial %s in %s: %v", target, netns, err)
		return
	}
	defer upstream.Close()
	done := make(chan struct{}, 2)
	go func() { io.Copy(upstream, conn); upstream.(*net.TCPConn).CloseWrite(); done <- struct{}{} }()
	go func() { io.Copy(conn, upstream); conn.(*net.TCPConn).CloseWrite(); done <- struct{}{} }()
	<-done
	<-done
}

// dialIn opens the connection from a thread that joined the namespace: a socket belongs to the namespace of the
// thread that creates it. The thread is never unlocked, so Go ends it with the goroutine instead of reusing it
// in the wrong namespace.
func dialIn(netns, target string) (net.Conn, error) {
	type result struct {
		conn net.Conn
		err  error
	}
	ch := make(chan result, 1)
	go func() {
		runtime.LockOSThread()
		f, err := os.Open(netns)
		if err != nil {
			ch <- result{nil, err}
			return
		}
		defer f.Close()
		if err := unix.Setns(int(f.Fd()), unix.CLONE_NEWNET); err != nil {
			ch <- result{nil, err}
			return
		}
		conn, err := net.Dial("tcp", target)
		ch <- result{conn, err}
	}()
	r := <-ch
	return r.conn, r.err
}
