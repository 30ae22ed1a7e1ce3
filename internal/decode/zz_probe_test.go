package decode

import (
	"fmt"
	"testing"
)

func TestZZProbe(t *testing.T) {
	for _, a := range []string{"vega7", "cdna2", "rdna3.5"} {
		d := loadFamily(t, a)
		for _, g := range d.groups {
			for _, fm := range g.formats {
				if fm.kind == kMTBUF || fm.Name == "VINTRP" || fm.Name == "VINTERP" {
					s := ""
					for _, f := range fm.Fields {
						s += fmt.Sprintf(" %s[%d:%d]", f.Name, f.MSB, f.LSB)
					}
					fmt.Println(a, fm.Name, s)
				}
			}
		}
	}
}
