package lab

import (
	goparser "go/parser"
	gotoken "go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The lab imitates devices from their vendors' sources, never from the provider: none of its
// code (tests aside) may import a package of this module outside internal/lab, or a lab-based
// test could pass because both sides share a reading.
func TestLabImportsNoProjectPackage(t *testing.T) {
	const module = "github.com/rocefabric/terraform-provider-roce/"
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := goparser.ParseFile(gotoken.NewFileSet(), path, nil, goparser.ImportsOnly)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(p, module) && !strings.HasPrefix(p, module+"internal/lab") {
				t.Errorf("%s imports %s: the lab must not depend on the provider's code", path, p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
