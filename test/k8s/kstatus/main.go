// Command kstatus prints kstatus' verdict on one Kubernetes object: it reads the object as JSON on stdin, runs
// sigs.k8s.io/cli-utils/pkg/kstatus/status.Compute (the rules Flux, `helm --wait=watcher` and kstatus-based
// Argo CD health use) and prints {"status": "...", "message": "..."} as JSON.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"
)

func main() {
	raw, err := io.ReadAll(os.Stdin)
	if err != nil {
		fail("reading stdin: %v", err)
	}
	// UnmarshalJSON keeps integers as int64 (plain json.Unmarshal makes float64s, which kstatus refuses).
	obj := &unstructured.Unstructured{}
	if err := obj.UnmarshalJSON(raw); err != nil {
		fail("stdin is not a Kubernetes object (apiVersion, kind, metadata): %v", err)
	}
	res, err := status.Compute(obj)
	if err != nil {
		fail("status.Compute: %v", err)
	}
	out, _ := json.Marshal(map[string]string{"status": res.Status.String(), "message": res.Message})
	fmt.Println(string(out))
}

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "kstatus: "+format+"\n", args...)
	os.Exit(1)
}
