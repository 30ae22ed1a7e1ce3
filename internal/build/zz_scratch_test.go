package build

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
)

func TestZZScratch(t *testing.T) {
	src := upstreamDir(t)
	archs, insts, _, _, err := readAMDGuides(context.Background(), src, nopProgress{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mergeAMDXML(src, &archs, &insts, nopProgress{}); err != nil {
		t.Fatal(err)
	}
	for _, a := range archs {
		var fs []string
		for _, f := range a.Formats {
			var fl []string
			for _, fd := range f.Fields {
				if fd.LSB < 32 {
					fl = append(fl, fmt.Sprintf("%s[%d:%d]%s", fd.Name, fd.MSB, fd.LSB, fd.Fixed))
				}
			}
			fs = append(fs, fmt.Sprintf("%s/%d{%s}%s", f.Name, f.Width, strings.Join(fl, " "), f.IdentifierMask))
		}
		fmt.Println(a.ID, a.Targets)
		fmt.Println("   ", strings.Join(fs, "\n    "))
	}
	encs := map[string]int{}
	idl := map[int]int{}
	for _, in := range insts {
		for _, e := range in.Encodings {
			encs[in.Arch+" "+e.Name+"/"+e.Format]++
			idl[len(e.Identifier)]++
		}
	}
	var ks []string
	for k, v := range encs {
		ks = append(ks, fmt.Sprintf("%s=%d", k, v))
	}
	sort.Strings(ks)
	fmt.Println(ks, idl)
}
