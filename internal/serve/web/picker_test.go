package web

import (
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// TestPickerCSS: style.css gets one picker rule per AMD family of isa's
// table, keyed by the family's class, and no marker left behind.
func TestPickerCSS(t *testing.T) {
	files, _, err := loadStatic()
	if err != nil {
		t.Fatal(err)
	}
	css := string(files["style.css"].body)
	if strings.Contains(css, "family-picker") {
		t.Error("style.css still holds the family-picker marker")
	}
	for _, id := range isa.AMDArchIDs() {
		c := isa.MustArch(id).Class
		if !strings.Contains(css, "#cpf-"+c+":checked ~ .cps li.cpg:not(.f-"+c+")") {
			t.Errorf("style.css has no picker rule for %s (class %q)", id, c)
		}
	}
}
