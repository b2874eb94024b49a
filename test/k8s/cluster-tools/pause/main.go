// Command pause is the pod sandbox's process for test/k8s/cluster.sh: it holds the pod's namespaces and does
// nothing else, like Kubernetes' own pause image, built here so no registry is needed.
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func main() {
	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	// As PID 1 of the pod it reaps the zombies a shared process namespace would leave.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGCHLD)
	<-signals
}
