package amdxml

import (
	"archive/zip"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Load reads every spec at path: one .xml file, a directory (each *.xml
// in it, not recursing), or a .zip such as AMD's official download (each
// *.xml member, in any folder of the archive). Results are sorted by file
// name. Zip members are named "archive.zip/member.xml" in Spec.File and in
// errors. Finding no XML file is an error.
func Load(path string) ([]*Spec, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	var specs []*Spec
	switch {
	case info.IsDir():
		entries, err := os.ReadDir(path)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if e.Type().IsRegular() && isXMLName(e.Name()) {
				s, err := ParseFile(filepath.Join(path, e.Name()))
				if err != nil {
					return nil, err
				}
				specs = append(specs, s)
			}
		}
	case strings.EqualFold(filepath.Ext(path), ".zip"):
		if specs, err = loadZip(path); err != nil {
			return nil, err
		}
	default:
		s, err := ParseFile(path)
		if err != nil {
			return nil, err
		}
		specs = append(specs, s)
	}
	if len(specs) == 0 {
		return nil, fmt.Errorf("%s: no .xml files", path)
	}
	sort.SliceStable(specs, func(i, j int) bool { return specs[i].File < specs[j].File })
	return specs, nil
}

func isXMLName(name string) bool {
	return strings.EqualFold(filepath.Ext(name), ".xml")
}

func loadZip(path string) ([]*Spec, error) {
	z, err := zip.OpenReader(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer z.Close()
	var specs []*Spec
	for _, f := range z.File {
		// Skip folders and the resource forks macOS adds to archives.
		if f.FileInfo().IsDir() || !isXMLName(f.Name) || strings.HasPrefix(f.Name, "__MACOSX/") {
			continue
		}
		name := path + "/" + f.Name
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		s, err := Parse(rc, name)
		rc.Close()
		if err != nil {
			return nil, err
		}
		specs = append(specs, s)
	}
	return specs, nil
}
