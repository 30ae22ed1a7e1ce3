package cli

import (
	"bufio"
	"encoding/binary"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gpuisa/gpuisa/internal/amd/codeobj"
	"github.com/gpuisa/gpuisa/internal/amd/encode"
	"github.com/gpuisa/gpuisa/internal/amd/listing"
	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/isa"
)

func newEncodeCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "encode --arch ARCH ('INSTRUCTION' | FILE | -)",
		Short: "Assemble AMD instructions",
		Long: `Encode assembles instructions with the bit layouts of the family's reference.

One instruction ('v_max_f32 v5, -1, v2') prints its bytes as llvm-mc's -show-encoding
would and its dwords. A FILE (or "-" for standard input) of instructions is assembled
line by line: labels ("loop:") and branches to them, comments (; and //) and directives
(ignored) are allowed; each instruction prints one line (address, words, text as the
decoder reads it back), --show-encoding prints llvm-mc's layout instead
("v_max_f32_e32 v5, -1, v2 ; encoding: [0xc1,0x04,0x0a,0x16]"), and lines that do
not assemble are reported on standard error with their line numbers.

VALU (VOP1, VOP2, VOP3, VOP3P, VOPC with their DPP16, DPP8 and SDWA forms, MFMA and
v_accvgpr_* with AGPRs, and the dual-issue VOPD/VOPD3 written 'X :: Y'), SALU (SOP1,
SOP2, SOPK, SOPC, SOPP), SMEM, LDS (DS), FLAT/GLOBAL/SCRATCH and untyped buffer
encodings are supported; typed buffers (format:[...]), images, exports and
interpolation say they are not supported yet. Every result is decoded back and
compared with the input before it is printed. Exit status: 0 on success, 1 when an
instruction cannot be encoded, 2 on unusable input.`,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			oneShotGC()
			defer oneProcWhenBusy()()
			args, err := takeDBFlag(e, args)
			if err != nil {
				return err
			}
			fs := flag.NewFlagSet("encode", flag.ContinueOnError)
			fs.SetOutput(e.stderr)
			arch := fs.String("arch", "", "family id or gfx target")
			showEnc := fs.Bool("show-encoding", false, "print llvm-mc's -show-encoding layout")
			pos, err := parseInterspersed(fs, args)
			if err != nil {
				return exitCode(2)
			}
			if *arch == "" || len(pos) == 0 {
				fmt.Fprintln(e.stderr, "usage: gpuisa encode --arch ARCH ('INSTRUCTION' | FILE | -)")
				return exitCode(2)
			}
			info, ok := isa.LookupArch(*arch)
			if !ok || info.Vendor != isa.VendorAMD {
				return errs.NotFound(isa.AMDArchIDs(), "unknown AMD family %q", *arch)
			}
			file := len(pos) == 1 && (pos[0] == "-" || isFile(pos[0]))
			if err := missingFile(pos); err != nil {
				return err
			}
			var raw []byte
			if file {
				// Read and sized before the tables load: sizing a large
				// input's heap collects once, and with the tables loaded
				// that collection marked them (a twentieth of a
				// 10,000-line encode).
				if raw, err = e.readInput(pos); err != nil {
					return err
				}
				e.sizeForInput(len(raw))
			}
			cache, closeDB, err := e.codecs()
			if err != nil {
				return err
			}
			defer closeDB()
			var in *listing.Input
			if file {
				prefetchCodec(cache, info.ID) // loads while the lines are parsed
				if in, err = listing.Parse(raw, codeobj.Machines{}); err != nil {
					return errs.Invalid("%v", err)
				}
				if in.Kind == listing.KindObject || in.Kind == listing.KindBytes {
					return errs.Invalid("the input is machine code, not assembly: use gpuisa decode")
				}
			}
			fam, err := familyCodec(cmd.Context(), cache, info.ID)
			if err != nil {
				return err
			}
			if fam, err = targetCodec(fam, *arch); err != nil {
				return err
			}
			if !file {
				b, err := fam.Enc.Encode(strings.Join(pos, " "))
				if err != nil {
					fmt.Fprintf(e.stderr, "gpuisa encode: %v\n", err)
					return exitCode(1)
				}
				var hexb, words []string
				for _, c := range b {
					hexb = append(hexb, fmt.Sprintf("0x%02x", c))
				}
				for i := 0; i+4 <= len(b); i += 4 {
					words = append(words, fmt.Sprintf("0x%08x", binary.LittleEndian.Uint32(b[i:])))
				}
				fmt.Fprintf(e.stdout, "[%s]\n%s\n", strings.Join(hexb, ","), strings.Join(words, " "))
				return nil
			}
			l := listing.Build(in, info.ID, fam, listing.Options{NoCollapse: true})
			name := pos[0]
			if name == "-" {
				name = "<stdin>"
			}
			bw := bufio.NewWriterSize(e.stderr, 4096)
			for _, s := range l.Sections {
				for _, en := range s.Entries {
					if en.Err() != "" {
						fmt.Fprintf(bw, "%s:%d: error: %s\n", name, en.Src, en.Err())
					}
				}
			}
			bw.Flush()
			if *showEnc {
				err = listing.WriteShowEncoding(e.stdout, l)
			} else {
				err = listing.WriteText(e.stdout, l, listing.WriteOptions{})
			}
			if err != nil {
				return err
			}
			if l.Errors > 0 {
				return exitCode(1)
			}
			return nil
		},
	}
}

// targetCodec is fam for the gfx target arch names (the spellings llvm-mc
// takes there, the instructions it lacks), or fam itself when arch is a
// family.
func targetCodec(fam listing.Codec, arch string) (listing.Codec, error) {
	t := strings.ToLower(arch)
	if !slices.Contains(fam.Dec.Arch().Targets, t) {
		return fam, nil
	}
	d, err := fam.Dec.ForTarget(t)
	if err != nil {
		return fam, err
	}
	return listing.Codec{Dec: d, Enc: encode.FromDecoder(d)}, nil
}

func isFile(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular()
}
