package ptx

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkCheckFile checks a generated 100,000-line PTX file and reports
// instructions per second.
func BenchmarkCheckFile(b *testing.B) {
	_, instrs, _ := realDocs(b)
	c := NewChecker(instrs)
	body := []string{
		"max.u32 %r%d, %r1, %r2;",
		"add.s32 %r%d, %r1, 4;",
		"ld.global.nc.v4.f32 {%f1,%f2,%f3,%f4}, [%rd%d];",
		"setp.lt.s32 %p%d, %r1, %r2;",
		"fma.rn.f32 %f%d, %f1, %f2, %f3;",
		"cvt.rn.f32.s32 %f%d, %r1;",
		"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, {%r5,%r6}, {%f%d,%f6,%f7,%f8};",
		"st.shared.u32 [%r%d], %r2;",
		"@%p1 bra $L__BB0_%d;",
		"max.NaN.f32 %f%d, %f1, %f2;",
	}
	var sb strings.Builder
	const lines = 100000
	sb.WriteString(".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry bench()\n{\n")
	fmt.Fprintf(&sb, "\t.reg .b32 %%r<%d>;\n\t.reg .f32 %%f<%d>;\n\t.reg .b64 %%rd<%d>;\n\t.reg .pred %%p<%d>;\n", lines, lines, lines, lines)
	for i := 0; i < lines; i++ {
		fmt.Fprintf(&sb, "\t"+body[i%len(body)]+"\n", i)
	}
	sb.WriteString("}\n")
	src := sb.String()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rep := c.CheckSource("bench.ptx", src)
		if rep.Invalid != 0 || len(rep.Results) != lines {
			for _, r := range rep.Results {
				if !r.Valid {
					b.Fatalf("%d results, %d invalid: line %d %s: %s", len(rep.Results), rep.Invalid, r.Line, r.Text, r.Reason)
				}
			}
			b.Fatalf("%d results, %d invalid: %+v", len(rep.Results), rep.Invalid, rep.Results[0])
		}
	}
	b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "instr/s")
}
