// Package decodetest loads the microcode-format chapter of an AMD ISA guide
// (the Markdown conversion in shared/upstream) into model values, so the
// decoder and encoder tests can run against real bit layouts and opcode tables
// before the project's database exists. It reads the upstream files at test
// time only; nothing it reads is stored in the repository.
//
// It is deliberately small: field tables ("Field Name | Bits | ...") and
// opcode tables ("Opcode # | Name | ...") of the "Microcode Formats" chapter.
// The real reader of the guides is internal/source/amdmanual.
package decodetest

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// SourcesDir finds shared/upstream: $GPUISA_SOURCES, else ../shared/upstream
// relative to the repository root found by walking up from the working
// directory. It returns "" when absent.
func SourcesDir() string {
	if d := os.Getenv("GPUISA_SOURCES"); d != "" {
		return d
	}
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			cand := filepath.Join(d, "..", "shared", "upstream")
			if _, err := os.Stat(filepath.Join(cand, "amd-isa-manuals")); err == nil {
				return cand
			}
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

var (
	sectionRe = regexp.MustCompile(`\*\*\d+\.\d+\.\d+(?:\.\d+)?\.\s+([A-Z0-9_\- ]+?)\*\*`)
	rangeRe   = regexp.MustCompile(`\[(\d+)(?::(\d+))?\]`)
	fixedRe   = regexp.MustCompile(`(?:Must be:?\s*|'b)([01_]+)`)
)

// LoadManual reads <sources>/amd-isa-manuals/<arch>/README.md and returns the
// family's formats and instructions (one Encoding per opcode table row).
func LoadManual(sources, arch string) (isa.Architecture, []isa.Instruction, error) {
	file := filepath.Join(sources, "amd-isa-manuals", arch, "README.md")
	f, err := os.Open(file)
	if err != nil {
		return isa.Architecture{}, nil, err
	}
	defer f.Close()
	info, _ := isa.LookupArch(arch)
	a := isa.Architecture{ID: arch, Name: info.Name, Vendor: isa.VendorAMD, Kind: isa.KindNative, Targets: info.Targets}

	formats := map[string]*isa.Format{}
	var order []string
	byName := map[string]*isa.Instruction{}
	var names []string

	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	inChapter := false
	cur := ""
	table := "" // "fields" | "opcodes" | ""
	lineNo := 0
	for sc.Scan() {
		lineNo++
		line := sc.Text()
		if strings.HasPrefix(line, "#") && strings.Contains(line, "Microcode Formats**") && strings.Contains(line, "Chapter") {
			inChapter = true
			continue
		}
		if !inChapter {
			continue
		}
		if strings.HasPrefix(line, "#") {
			if m := sectionRe.FindStringSubmatch(line); m != nil {
				cur = strings.TrimSpace(m[1])
				table = ""
			}
			if strings.Contains(line, "Chapter") && !strings.Contains(line, "Microcode") {
				break
			}
			continue
		}
		if strings.HasPrefix(line, "| Field Name") {
			table = "fields"
			continue
		}
		if strings.HasPrefix(line, "| Opcode #") {
			table = "opcodes"
			continue
		}
		if !strings.HasPrefix(line, "|") {
			if strings.TrimSpace(line) != "" {
				table = ""
			}
			continue
		}
		if strings.HasPrefix(line, "|--") || cur == "" {
			continue
		}
		cells := splitRow(line)
		switch table {
		case "fields":
			if len(cells) < 2 {
				continue
			}
			name := cells[0]
			rs := rangeRe.FindAllStringSubmatch(strings.Fields(cells[1] + " x")[0], -1)
			if name == "" || len(rs) == 0 {
				continue
			}
			fm := formats[cur]
			if fm == nil {
				fm = &isa.Format{Name: cur, Prov: isa.Prov{Source: isa.SourceAMDManual, File: file, Line: lineNo}}
				formats[cur] = fm
				order = append(order, cur)
			}
			fld := isa.Field{Name: name}
			for _, r := range rs {
				msb, _ := strconv.Atoi(r[1])
				lsb := msb
				if r[2] != "" {
					lsb, _ = strconv.Atoi(r[2])
				}
				fld.Ranges = append(fld.Ranges, isa.BitRange{MSB: msb, LSB: lsb})
			}
			fld.MSB, fld.LSB = fld.Ranges[0].MSB, fld.Ranges[0].LSB
			if len(fld.Ranges) == 1 {
				fld.Ranges = nil
			}
			if len(cells) > 2 && name == "ENCODING" {
				if m := fixedRe.FindStringSubmatch(cells[2]); m != nil {
					fld.Fixed = strings.ReplaceAll(m[1], "_", "")
					// The guides sometimes give an ENCODING range narrower
					// than the value they list (VOP3P: [31:26] 'b11001100);
					// the value is right, so widen the range from the MSB.
					if n := len(fld.Fixed); n != fld.Width() && len(fld.Ranges) == 0 {
						fld.LSB = fld.MSB - n + 1
						fm.Notes = append(fm.Notes, fmt.Sprintf("ENCODING widened to [%d:%d] to fit %s", fld.MSB, fld.LSB, fld.Fixed))
					}
				}
			}
			fm.Fields = append(fm.Fields, fld)
		case "opcodes":
			for i := 0; i+1 < len(cells); i += 2 {
				op, err := strconv.Atoi(cells[i])
				name := strings.ToLower(strings.ReplaceAll(cells[i+1], `\_`, "_"))
				if err != nil || name == "" || strings.ContainsAny(name, " ") {
					continue
				}
				in := byName[name]
				if in == nil {
					in = &isa.Instruction{Arch: arch, Name: name, Vendor: isa.VendorAMD, Kind: isa.KindNative}
					byName[name] = in
					names = append(names, name)
				}
				in.Encodings = append(in.Encodings, isa.Encoding{Name: cur, Format: cur, Opcode: op,
					Prov: isa.Prov{Source: isa.SourceAMDManual, File: file, Line: lineNo}})
			}
		}
	}
	if err := sc.Err(); err != nil {
		return a, nil, fmt.Errorf("%s:%d: %w", file, lineNo, err)
	}
	for _, n := range order {
		fm := formats[n]
		w := 0
		for _, fl := range fm.Fields {
			for _, r := range ranges(fl) {
				if r.MSB+1 > w {
					w = r.MSB + 1
				}
			}
		}
		fm.Width = (w + 31) / 32 * 32
		a.Formats = append(a.Formats, *fm)
	}
	sort.Strings(names)
	var out []isa.Instruction
	for _, n := range names {
		in := byName[n]
		for i := range in.Encodings {
			if fm := formats[in.Encodings[i].Format]; fm != nil {
				in.Encodings[i].Width = fm.Width
			}
		}
		out = append(out, *in)
	}
	if len(a.Formats) == 0 {
		return a, nil, fmt.Errorf("%s: no microcode format tables found", file)
	}
	return a, out, nil
}

func ranges(f isa.Field) []isa.BitRange {
	if len(f.Ranges) > 0 {
		return f.Ranges
	}
	return []isa.BitRange{{MSB: f.MSB, LSB: f.LSB}}
}

func splitRow(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(line, "|")
	line = strings.TrimSuffix(line, "|")
	parts := strings.Split(line, "|")
	for i := range parts {
		parts[i] = strings.TrimSpace(strings.ReplaceAll(parts[i], "**", ""))
	}
	return parts
}
