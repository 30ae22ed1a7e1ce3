package cli

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/gpuisa/gpuisa/internal/decode"
	"github.com/gpuisa/gpuisa/internal/encode"
	"github.com/gpuisa/gpuisa/internal/isa"
)

func init() { extraCommands = append(extraCommands, newDecodeCmd, newEncodeCmd) }

// familyLoader reads one family's formats and the codec facts of its
// instructions (what the decoder and encoder read) from the database.
func (e *env) familyLoader(ctx context.Context) (decode.Loader, func(), error) {
	db, err := e.open()
	if err != nil {
		return nil, nil, err
	}
	load := func(arch string) (isa.Architecture, []isa.Instruction, error) {
		a, err := db.Arch(ctx, arch)
		if err != nil {
			return isa.Architecture{}, nil, err
		}
		out, err := db.Codecs(ctx, a.ID)
		if err != nil {
			return isa.Architecture{}, nil, err
		}
		return a, out, nil
	}
	return load, func() { db.Close() }, nil
}

// familyTool runs a decode/encode style tool, which parses its own flags
// and reads one family from the database.
func (e *env) familyTool(run func(args []string, stdout, stderr io.Writer, load decode.Loader) int) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		args, err := takeDBFlag(e, args)
		if err != nil {
			return err
		}
		load, closeDB, err := e.familyLoader(cmd.Context())
		if err != nil {
			return err
		}
		defer closeDB()
		if code := run(args, e.stdout, e.stderr, load); code != 0 {
			return exitCode(code)
		}
		return nil
	}
}

func newDecodeCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "decode --arch ARCH [--json] (HEXWORDS... | FILE | -)",
		Short: "Disassemble AMD machine code",
		Long: `Decode disassembles AMD GPU machine code with the bit layouts of the family's
reference: hex words (0x160a04c1), llvm-mc byte lists ([0xc1,0x04,0x0a,0x16]), a file
of either, raw binary, or an AMDGPU code object (ELF; its .text is decoded with symbol
names); "-" reads any of these from standard input. For each instruction it prints the
mnemonic, the encoding, every field with its bits and value, and the operands in LLVM's
syntax; a dual-issue (VOPD) word prints both operations, X :: Y. Exit status: 0 when everything
decoded, 1 when some bytes did not, 2 on unusable input.`,
		DisableFlagParsing: true,
		RunE:               e.familyTool(decode.RunDecode),
	}
}

func newEncodeCmd(e *env) *cobra.Command {
	return &cobra.Command{
		Use:   "encode --arch ARCH 'ASSEMBLY'",
		Short: "Assemble one AMD instruction",
		Long: `Encode assembles one instruction with the bit layouts of the family's reference
and prints its bytes, as llvm-mc's -show-encoding would. VALU (VOP1, VOP2, VOP3, VOP3P,
VOPC with their DPP16, DPP8 and SDWA forms, and the dual-issue VOPD/VOPD3 written
'X :: Y'), SALU (SOP1, SOP2, SOPK, SOPC, SOPP), SMEM, LDS (DS), FLAT/GLOBAL/SCRATCH and
untyped buffer encodings are supported; typed buffers (format:[...]), images, exports
and interpolation say they are not supported yet. Every result is
decoded back and compared with the input before it is printed. Exit status: 0 on success,
1 when the instruction cannot be encoded, 2 on unusable input.`,
		DisableFlagParsing: true,
		RunE:               e.familyTool(encode.RunEncode),
	}
}
