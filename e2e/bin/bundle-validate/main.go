// bundle-validate runs operator-framework's own bundle validators (the library behind
// `operator-sdk bundle validate`) over a registry+v1 bundle directory and exits non-zero on any
// error. operator-verify, the command shipped in the same module, logs errors but exits 0, so a
// build cannot rely on it.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/operator-framework/api/pkg/manifests"
	"github.com/operator-framework/api/pkg/validation"
	"github.com/operator-framework/api/pkg/validation/errors"
)

type finding struct {
	Object string `json:"object"`
	Level  string `json:"level"`
	Field  string `json:"field,omitempty"`
	Detail string `json:"detail"`
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: bundle-validate <bundle-dir>")
		os.Exit(2)
	}
	bundle, err := manifests.GetBundleFromDir(os.Args[1])
	if err != nil || bundle == nil {
		fmt.Fprintf(os.Stderr, "cannot load bundle from %s: %v\n", os.Args[1], err)
		os.Exit(1)
	}
	validators := validation.DefaultBundleValidators.WithValidators(
		validation.ObjectValidator,
		validation.GoodPracticesValidator,
		validation.OperatorHubV2Validator,
		validation.StandardCapabilitiesValidator,
		validation.StandardCategoriesValidator,
		validation.AlphaDeprecatedAPIsValidator,
	)
	objects := append(bundle.ObjectsToValidate(), map[string]string{"k8s-version": os.Getenv("K8S_VERSION")})
	findings := []finding{}
	failed := false
	for _, result := range validators.Validate(objects...) {
		for _, e := range result.Errors {
			findings = append(findings, toFinding(result, e, "error"))
			failed = true
		}
		for _, w := range result.Warnings {
			findings = append(findings, toFinding(result, w, "warning"))
		}
	}
	out, _ := json.MarshalIndent(map[string]any{"bundle": bundle.Name, "passed": !failed, "findings": findings}, "", "  ")
	fmt.Println(string(out))
	if failed {
		os.Exit(1)
	}
}

func toFinding(r errors.ManifestResult, e errors.Error, level string) finding {
	return finding{Object: r.Name, Level: level, Field: e.Field, Detail: e.Error()}
}
