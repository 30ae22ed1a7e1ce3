package amdmanual

import (
	"github.com/gpuisa/gpuisa/internal/base/lazyre"
	"strconv"
	"strings"
)

// Promotion is a guide's rule for encoding a VOP1/VOP2/VOPC/VINTERP
// instruction as VOP3: "The VOP3 opcode is: VOP2 opcode + 0x100." Older
// guides list only VOP3-only instructions in their VOP3A opcode tables, so
// the rule is the only statement of the promoted opcodes.
type Promotion struct {
	From   string // the format the rule applies to: "VOP2"
	To     string // the guide's VOP3 format name: "VOP3A" or "VOP3"
	Offset int    // added to the From opcode
	Line   int    // line of the rule
}

var (
	// "VOP2 using VOP3 encoding", "VOPC using VOP3A encoding",
	// "VOP2 using VOP3 or VOP3SD encoding", "VINTERP using VOP3 encoding".
	promotionHeading = lazyre.New(`\b(VOP1|VOP2|VOPC|VINTERP|VINTRP)\s+using\s+VOP3`)
	promotionRule    = lazyre.New(`The VOP3A? opcode\s+is:\s*\w+\s+opcode\s*\+\s*0x([0-9A-Fa-f]+)`)
)

// findPromotions reads the promotion rules. The rule names the source
// format loosely (the VOP1 section says "VOP2 opcode + 0x140"), so the
// format comes from the section heading.
func findPromotions(lines []string, formats []Format) []Promotion {
	to := "VOP3"
	for _, f := range formats {
		if f.Name == "VOP3A" {
			to = "VOP3A"
		}
	}
	var out []Promotion
	from := ""
	for i, line := range lines {
		if h, ok := headingText(strings.TrimSpace(line)); ok {
			from = ""
			if m := promotionHeading.FindStringSubmatch(h); m != nil {
				from = m[1]
				if from == "VINTRP" {
					from = "VINTERP"
				}
			}
			continue
		}
		if from == "" {
			continue
		}
		// The rule may wrap onto the next line in the conversion.
		text := line
		if i+1 < len(lines) {
			text += " " + lines[i+1]
		}
		if m := promotionRule.FindStringSubmatch(text); m != nil && strings.Contains(line, " opcode") {
			off, err := strconv.ParseInt(m[1], 16, 32)
			if err == nil {
				out = append(out, Promotion{From: from, To: to, Offset: int(off), Line: i + 1})
			}
			from = ""
		}
	}
	return out
}
