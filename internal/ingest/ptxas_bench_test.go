package ingest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/gpuisa/gpuisa/internal/oracle/ptxas"
	"github.com/gpuisa/gpuisa/internal/ptx"
	"github.com/gpuisa/gpuisa/internal/testing/testenv"
)

// benchPTXFile writes a 100,000-instruction kernel both the checker and
// ptxas accept.
func benchPTXFile(lines int) string {
	body := []string{
		"max.u32 %r1, %r2, %r3;",
		"add.s32 %r4, %r1, 4;",
		"ld.global.nc.v4.f32 {%f1,%f2,%f3,%f4}, [%rd1];",
		"setp.lt.s32 %p1, %r1, %r2;",
		"fma.rn.f32 %f5, %f1, %f2, %f3;",
		"cvt.rn.f32.s32 %f6, %r1;",
		"mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4}, {%r1,%r2,%r3,%r4}, {%r5,%r6}, {%f5,%f6,%f7,%f8};",
		"st.shared.u32 [%r7], %r2;",
		"@%p1 bra $L__BB0_%d;",
		"max.NaN.f32 %f7, %f1, %f2;",
	}
	var sb strings.Builder
	sb.WriteString(".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry bench(.param .u64 p)\n{\n")
	sb.WriteString(".reg .b32 %r<9>;\n.reg .f32 %f<9>;\n.reg .b64 %rd<2>;\n.reg .pred %p<2>;\nld.param.u64 %rd1, [p];\n")
	for i := 0; i < lines; i++ {
		l := body[i%len(body)]
		if strings.Contains(l, "%d") {
			n := fmt.Sprint(i)
			sb.WriteString("\t" + strings.ReplaceAll(l, "%d", n) + "\n$L__BB0_" + n + ":\n")
			continue
		}
		sb.WriteString("\t" + l + "\n")
	}
	sb.WriteString("\tret;\n}\n")
	return sb.String()
}

// BenchmarkCheckVsPTXAS checks the same 100,000-line file with `ptx
// check`'s checker and with ptxas as a whole process (parse only, for
// sm_90); the ratio of the two ns/op is the checker's speed-up.
func BenchmarkCheckVsPTXAS(b *testing.B) {
	src := upstreamDir(b)
	_, _, _, _, model, _, err := readPTX(src, nopProgress{})
	if err != nil {
		b.Fatal(err)
	}
	const lines = 100000
	file := benchPTXFile(lines)
	b.Run("checker", func(b *testing.B) {
		c := ptx.NewChecker(model)
		for i := 0; i < b.N; i++ {
			rep := c.CheckSource("bench.ptx", file)
			if rep.Invalid != 0 {
				b.Fatalf("%d invalid", rep.Invalid)
			}
		}
		b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "instr/s")
	})
	b.Run("ptxas", func(b *testing.B) {
		s := ptxas.NewSession(testenv.PTXAS(b), "")
		s.ParseOnly = true
		for i := 0; i < b.N; i++ {
			msgs, err := s.AssembleModule(context.Background(), "sm_90", file)
			if err != nil {
				b.Fatal(err)
			}
			for _, m := range msgs {
				if m.Severity != "warning" {
					b.Fatalf("ptxas: line %d: %s", m.Line, m.Message)
				}
			}
		}
		b.ReportMetric(float64(lines)*float64(b.N)/b.Elapsed().Seconds(), "instr/s")
	})
}
