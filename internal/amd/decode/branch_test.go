package decode

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/gpuisa/gpuisa/internal/isa"
)

// TestAppendTextBranchAgrees: the one decode that gives a listing both an
// instruction's text and whether it branches says what AppendText and
// BranchOffset say apart, for every AMD family, on random words and on
// every 9-bit top (each group of byTop) with random low bits.
func TestAppendTextBranchAgrees(t *testing.T) {
	for _, arch := range isa.AMDArchIDs() {
		t.Run(arch, func(t *testing.T) {
			d := loadFamily(t, arch)
			r := rand.New(rand.NewPCG(5, uint64(len(arch))))
			code := make([]byte, 12)
			branches := 0
			for i := 0; i < 60000; i++ {
				for k := 0; k < 12; k += 4 {
					binary.LittleEndian.PutUint32(code[k:], r.Uint32())
				}
				if i%2 == 0 { // walk the tops, so every group is met
					w := binary.LittleEndian.Uint32(code)
					binary.LittleEndian.PutUint32(code, w&(1<<23-1)|uint32(i/2%512)<<23)
				}
				text, n, err := d.AppendText(nil, code, 0)
				text2, n2, simm2, br2, err2 := d.AppendTextBranch(nil, code, 0)
				if (err == nil) != (err2 == nil) || !bytes.Equal(text, text2) || n != n2 {
					t.Fatalf("% x: AppendText %q %d %v, AppendTextBranch %q %d %v", code, text, n, err, text2, n2, err2)
				}
				if err != nil {
					continue
				}
				simm, br := d.BranchOffset(code, 0)
				if br != br2 || br && simm != simm2 {
					t.Fatalf("% x (%s): BranchOffset %d %v, AppendTextBranch %d %v", code, text, simm, br, simm2, br2)
				}
				if br {
					branches++
				}
			}
			if branches == 0 {
				t.Errorf("no branch among the words: the test compared nothing that branches")
			}
		})
	}
}
