package web

import (
	"encoding/json"
	"reflect"
	"strings"

	"github.com/gpuisa/gpuisa/internal/amd/sem"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/ptx"
	"github.com/gpuisa/gpuisa/internal/xvendor/famdiff"
)

// The OpenAPI document is written here by hand for the operations and derived
// by reflection from the model's JSON tags for the schemas, so a change to
// the model shows up in the document (and in the golden test) without anyone
// remembering to edit it. The handler test checks that every registered API
// route has an operation here and every operation a route.

type apiParam struct {
	Name, In, Description string
	Required              bool
	Type                  string // "string" | "integer"
}

type apiOperation struct {
	Path, ID, Summary string
	Params            []apiParam
	Result            any // a value of the answer's type
	Errors            []int
}

var (
	archParam = apiParam{Name: "arch", In: "path", Required: true, Type: "string",
		Description: "Family id (cdna4, rdna3.5, ptx); gfx target names and common spellings are accepted."}
	nameParam = apiParam{Name: "name", In: "path", Required: true, Type: "string",
		Description: "Mnemonic; matched case-insensitively, through aliases, and with _e32/_e64/_sdwa/_dpp stripped."}
	// amdArchQuery is the family the machine-code operations read.
	amdArchQuery = apiParam{Name: "arch", In: "query", Required: true, Type: "string",
		Description: "AMD family id or gfx target (cdna4, rdna3, gfx950)."}
)

var apiOperations = []apiOperation{
	{Path: "/api/v1/info", ID: "getInfo", Summary: "Describe the database build: id, date, documents, counts.",
		Result: isa.BuildInfo{}},
	{Path: "/api/v1/status", ID: "getStatus", Summary: "The build being served and, when it is provisional (the documents' facts only, served while the oracle passes run in the background), how far verification has got; never cached.",
		Result: statusAnswer{}},
	{Path: "/api/v1/archs", ID: "listArchs", Summary: "List the families in display order, with their formats.",
		Result: []isa.Architecture{}},
	{Path: "/api/v1/archs/{arch}", ID: "getArch", Summary: "Describe one family.",
		Params: []apiParam{archParam}, Result: isa.Architecture{}, Errors: []int{404}},
	{Path: "/api/v1/archs/{arch}/instructions", ID: "listInstructions", Summary: "List a family's instructions, sorted by name.",
		Params: []apiParam{archParam}, Result: []isa.Summary{}, Errors: []int{404}},
	{Path: "/api/v1/archs/{arch}/cost", ID: "costTable",
		Summary: "An AMD family's instructions on one target ranked by LLVM's scheduling model (llvm-mca): latency, reciprocal throughput, micro-ops, unit and resources — the compiler's model, not a measurement. total counts the rows before limit.",
		Params: []apiParam{archParam,
			{Name: "target", In: "query", Type: "string", Description: "A gfx target of the family (default: its first with a modelled instruction)."},
			{Name: "unit", In: "query", Type: "string", Description: "Only instructions using this unit or resource: HWXDL, XDL (the HW prefix may be left out), HWVALU, HWVMEM, ..."},
			{Name: "dtype", In: "query", Type: "string", Description: "Only matrix instructions of this data type: fp64, fp32, tf32, fp16, bf16, fp8, fp6, fp4, int8, int4 (f16, i8, xf32 are read as those)."},
			{Name: "sort", In: "query", Type: "string", Description: "latency (default), throughput, uops, name, work (a matrix instruction's work per cycle per CU) or ops (its work per instruction)."},
			{Name: "asc", In: "query", Type: "string", Description: "1: smallest first (numeric sorts are largest first otherwise)."},
			{Name: "limit", In: "query", Type: "integer", Description: "At most this many rows (default 200; 0: all)."},
		}, Result: costTableResult{}, Errors: []int{400, 404}},
	{Path: "/api/v1/archs/{arch}/instructions/{name}", ID: "getInstruction",
		Summary: "One instruction: the same document as `gpuisa show --json`.",
		Params:  []apiParam{archParam, nameParam}, Result: isa.Instruction{}, Errors: []int{404}},
	{Path: "/api/v1/search", ID: "search", Summary: "Rank instructions by name, prefix, typo, what people call the operation (gpuisa's synonym table: popcount, count leading zeros, wmma) and description words; a query that looks like instruction words is also decoded (decoded).",
		Params: []apiParam{
			{Name: "q", In: "query", Required: true, Type: "string", Description: "What to look for (at most 200 characters)."},
			{Name: "arch", In: "query", Type: "string", Description: "Only this family."},
			{Name: "limit", In: "query", Type: "integer", Description: "Most hits to return, 1 to 200 (default 20)."},
		}, Result: SearchResult{}, Errors: []int{400, 404}},
	{Path: "/api/v1/decode", ID: "decode",
		Summary: "Decode AMD machine code: each instruction with its encoding, fields (bits and values) and operands in LLVM syntax; undecodable dwords come back in errors with their byte offsets.",
		Params: []apiParam{
			amdArchQuery,
			{Name: "hex", In: "query", Required: true, Type: "string", Description: "Little-endian hex dwords (0x160a04c1 7e020280) or an llvm-mc byte list ([0xc1,0x04,0x0a,0x16]); at most 1024 bytes."},
		}, Result: DecodeResult{}, Errors: []int{400, 404}},
	{Path: "/api/v1/encode", ID: "encode",
		Summary: "Assemble one AMD instruction written in LLVM syntax: its bytes (as llvm-mc -show-encoding prints them), its dwords and the instruction decoded back from them. VALU (with DPP, SDWA and dual-issue VOPD 'X :: Y'), SALU, SMEM, LDS, FLAT/GLOBAL/SCRATCH and untyped buffer instructions; others answer 400 saying they are not supported yet.",
		Params: []apiParam{
			amdArchQuery,
			{Name: "asm", In: "query", Required: true, Type: "string", Description: "One instruction, at most 512 characters: v_max_f32 v5, -1, v2."},
		}, Result: EncodeResult{}, Errors: []int{400, 404}},
	{Path: "/api/v1/eval", ID: "eval",
		Summary: "Run an AMD instruction's pseudocode (its guide's, RDNA 3 and later, CDNA 3 and later) on the inputs given: per lane the sources as read and the destinations written, the wave-wide masks and state it changed (SCC, VCC, EXEC, TRAPSTS), and with trace every assignment. The pseudocode is evaluated as written; instructions that touch memory or whose text is prose answer 400 saying why. A matrix operation (MFMA, WMMA) runs its formula D = A * B + C over whole matrices (s0 is A, s1 B, s2 C: one value for every element or all of them row by row) and answers in matrix; sparse, scaled and format-field forms answer 400 saying why.",
		Params: []apiParam{
			{Name: "arch", In: "query", Required: true, Type: "string", Description: "AMD family id or gfx target (rdna4, cdna3, gfx942)."},
			{Name: "name", In: "query", Required: true, Type: "string", Description: "The instruction (v_max_num_f32)."},
			{Name: "s0", In: "query", Type: "string", Description: "S0's value: hex bits (0x7fc00000), a decimal integer, or for a float a number or inf, -inf, -0, nan, snan, nan:0xPAYLOAD, max, min, denorm; a comma list gives one per lane (at most 80 characters a value). Every source the pseudocode reads needs a value; one it does not read is refused (400)."},
			{Name: "s1", In: "query", Type: "string", Description: "S1's value, as s0."},
			{Name: "s2", In: "query", Type: "string", Description: "S2's value, as s0."},
			{Name: "s3", In: "query", Type: "string", Description: "S3's value, as s0."},
			{Name: "exec", In: "query", Type: "string", Description: "Lanes that run, hex (default: as many as the longest list)."},
			{Name: "wave", In: "query", Type: "integer", Description: "Wave size, 32 or 64 (default: the family's)."},
			{Name: "ieee", In: "query", Type: "string", Description: "MODE.IEEE, 1 (default) or 0."},
			{Name: "round", In: "query", Type: "string", Description: "Rounding: nearest-even (default), toward-zero, up, down."},
			{Name: "denorm", In: "query", Type: "string", Description: "Subnormals: keep (default) or flush."},
			{Name: "scc", In: "query", Type: "string", Description: "SCC before the instruction, 0 or 1; needed when the pseudocode reads it (400 naming it otherwise)."},
			{Name: "vcc", In: "query", Type: "string", Description: "VCC before the instruction, hex; needed when the pseudocode reads it."},
			{Name: "abs", In: "query", Type: "string", Description: "|x| on these float sources (VOP3 abs): 0,1."},
			{Name: "neg", In: "query", Type: "string", Description: "-x on these float sources (VOP3 neg): 0,1."},
			{Name: "clamp", In: "query", Type: "string", Description: "1: clamp the float result to [0, 1]."},
			{Name: "omod", In: "query", Type: "integer", Description: "Output modifier: 1 (*2), 2 (*4), 3 (/2)."},
			{Name: "op_sel", In: "query", Type: "string", Description: "OPSEL bits as the pseudocode reads them (0x3)."},
			{Name: "op_sel_hi", In: "query", Type: "string", Description: "OPSEL_HI bits as the pseudocode reads them."},
			{Name: "m0", In: "query", Type: "string", Description: "M0 before the instruction; needed when the pseudocode reads it."},
			{Name: "trace", In: "query", Type: "string", Description: "1: list every assignment in order."},
		}, Result: sem.Response{}, Errors: []int{400, 404}},
	{Path: "/api/v1/diff/{a}/{b}", ID: "diff",
		Summary: "What changed from generation a to generation b: two AMD families (instructions added, removed, renamed with the evidence, opcode, format, operand, semantics and target-support changes, bit-layout changes per format), two PTX ISA versions (ptx:7.8, ptx:8.0: what the newer introduced, with NVIDIA's release notes) or two sm_ targets (sm_80, sm_90: what becomes available, from ptxas's target grid where it verified a form, else the documentation). Added and removed exclude renames.",
		Params: []apiParam{
			{Name: "a", In: "path", Required: true, Type: "string", Description: "The older side: a family id, gfx target or product (rdna3, gfx942, mi300x), ptx:VERSION, or an sm_ target."},
			{Name: "b", In: "path", Required: true, Type: "string", Description: "The newer side, of the same kind as a."},
		}, Result: famdiff.Result{}, Errors: []int{400, 404}},
	// After diff: famdiff.Result keeps the schema name "Result" it was
	// published under; ptx.Result, registered later, is PtxResult.
	{Path: "/api/v1/ptx/check", ID: "checkPTX",
		Summary: "Check PTX (one statement or a whole file) against the documented forms and ptxas's recorded verdicts, as `gpuisa ptx check` does: per statement valid or why not, the PTX ISA version and target it needs; a statement that needs a later target or version than the file's .version/.target (or target), or whose form they no longer support, is invalid.",
		Params: []apiParam{
			{Name: "ptx", In: "query", Required: true, Type: "string", Description: "PTX text, at most 64 KiB: 'max.NaN.f32 d, a, b;' or a file with .version and .target."},
			{Name: "target", In: "query", Type: "string", Description: "Judge for this sm_ target instead of the file's .target (sm_75)."},
		}, Result: ptx.FileReport{}, Errors: []int{400, 404}},
	{Path: "/api/v1/openapi.json", ID: "getOpenAPI", Summary: "This document.", Result: map[string]any{}},
	{Path: "/api/asm/{arch}/{opcode}", ID: "getAsmDoc",
		Summary: "Compiler Explorer's assembly documentation (AssemblyInstructionInfo: tooltip, html, url) for one opcode; 404 {\"error\": \"Unknown opcode 'X'\"} like Compiler Explorer's own endpoint.",
		Params: []apiParam{
			{Name: "arch", In: "path", Required: true, Type: "string", Description: "amdgpu (the newest AMD family that has the opcode), ptx, or a family id or gfx target (rdna3, gfx942)."},
			asmOpcodeParam,
		}, Result: AsmDoc{}, Errors: []int{404}},
	{Path: "/api/asm/{arch}/{family}/{opcode}", ID: "getAsmDocFamily",
		Summary: "The same for one AMD family: /api/asm/amdgpu/rdna3/v_max_f32.",
		Params: []apiParam{
			{Name: "arch", In: "path", Required: true, Type: "string", Description: "amdgpu."},
			{Name: "family", In: "path", Required: true, Type: "string", Description: "Family id or gfx target (rdna3, cdna4, gfx942)."},
			asmOpcodeParam,
		}, Result: AsmDoc{}, Errors: []int{404}},
}

var asmOpcodeParam = apiParam{Name: "opcode", In: "path", Required: true, Type: "string",
	Description: "Mnemonic, case-insensitive, with or without _e32/_e64/_sdwa/_dpp; PTX with or without modifiers (max.f32)."}

// fieldDocs describe the fields whose meaning their name does not carry
// ("Schema.property"): above all what NVIDIA's assembler said about PTX.
var fieldDocs = map[string]string{
	"Instruction.targets": "Target compatibility: for AMD every gfx target as llvm-mc decided, for PTX every sm_ target ptxas knows " +
		"(supported where it accepts one of the instruction's forms). Empty when not verified.",
	"Instruction.measured":       "PTX: timings measured on a real GPU by gpuisa ptx bench (one warp, %clock64), when the build was given a results file.",
	"Instruction.cost":           "AMD: LLVM's scheduling model (llvm-mca -instruction-tables=full) per gfx target where an example assembles: the compiler's model, not a measurement.",
	"Cost.unit":                  "The execution unit the model charges: HWVALU, HWSALU, HWVMEM, HWLGKM, HWXDL (matrix), HWBranch, ...",
	"Cost.resources":             "Every hardware resource with how long the model holds it (HWXDL[8]: the matrix unit for 8 of the guides' passes, 32 clock cycles on CDNA; see work).",
	"Cost.rthroughput":           "Reciprocal throughput in the model's units (for a matrix instruction its passes).",
	"costTableRow.work":          "A matrix instruction's work: shape, data type, ops = 2*M*N*K*blocks (FLOPs, integer ops for integer types), the model's passes, cycles = passes x the family's cycles per pass (4 on CDNA: the guides' PASS), and ops per cycle per SIMD and per CU (4 SIMDs).",
	"Instruction.target_details": "Per target: the verdict, the statement assembled (printed) and the assembler's message where it is unsupported.",
	"Instruction.ptx_version":    "PTX: the lowest PTX ISA version over the forms: ptxas's where it contradicts the documentation or the documentation is silent.",
	"Instruction.min_target":     "PTX: the oldest target over the forms, settled like ptx_version.",
	"Instruction.conflicts":      "Facts the sources disagree on, each with every source's value (for PTX: the documentation's and ptxas's minimum version and target of a form).",
	"Form.min_target":            "The form's oldest target: ptxas's where it contradicts the documentation or the documentation is silent (doc_min_target then keeps the documentation's).",
	"Form.ptx_version":           "The form's lowest PTX ISA version, settled like min_target.",
	"Form.status":                "ptxas's verdict on the form: verified | rejected (on every target: min_target and ptx_version are then empty, doc_* keep the documentation's) | not-verified; absent when ptxas was not run.",
	"Form.doc_min_target":        "The documentation's minimum target, where it differs from min_target.",
	"Form.doc_ptx_version":       "The documentation's PTX ISA version, where it differs from ptx_version.",
	"Form.targets":               "ptxas's verdict on the form's statement per sm_ target (supported | unsupported); absent when not verified.",
	"Form.check":                 "What ptxas said about the form's statement: status, lowest version and target, message, SASS per target.",
	"Form.modifier_checks":       "What ptxas said about the form's statement with each optional modifier, other variable choice or optional operand.",
	"Response.matrix":            "A matrix operation's D, row by row (lanes is then empty): each element C's plus the row-by-column dot product, summed exactly and rounded once (note says so).",
	"Example.checks":             "PTX: ptxas's verdict on each statement of the example, in its documented context, with SASS for the accepted ones.",
	"PTXCheck.status":            "verified (ptxas accepts it on some target) | rejected (on every target) | not-verified (ptxas could not be run on it).",
	"PTXCheck.ptx_version":       "The lowest PTX ISA version ptxas accepts the statement with.",
	"PTXCheck.min_target":        "The oldest target ptxas accepts the statement on.",
	"PTXCheck.floor":             "ptx_version is the lowest the target allows at all: ptxas cannot test an older one.",
	"PTXCheck.options":           "The (PTX version, target) pairs none beats on both, when newer targets accept the statement with an older PTX version.",
	"PTXCheck.message":           "ptxas's message where it rejected the statement or it was not verified.",
	"PTXCheck.tool":              "The ptxas that decided min_target (\"ptxas 13.5.37\").",
	"PTXCheck.searched":          "ptxas accepted the statement only with operand types or vector lengths other than the harness's first guess.",
	"PTXCheck.sass":              "The SASS ptxas emits for the statement per target (nvdisasm's listing without the test kernel's own instructions).",
	"ModifierCheck.raises":       "The part needs more than the form's statement: a later PTX ISA version or a newer target.",
	"ModifierCheck.variable":     "The template variable the modifier is a choice of (.irnd for .rni).",
	"SASSLine.control":           "The scheduling information in the encoding's control bits (sm_70 and newer), as gpuisa reads it: S stall cycles, y the yield bit, W/R the write/read barrier set, B the barriers waited on.",
	"Rename.evidence":            "Why the two spellings are one instruction: link (gpuisa's rename link: a documented rename, or what llvm-mc accepted and printed), alias (an LLVM or documented alias), encoding (identical formats and opcodes, the only such pair), semantics (identical pseudocode, the only such pair).",
	"Change.semantics":           "A word diff of the pseudocode (op = in both, - only in from, + only in to), ignoring whitespace, the renamed instructions' names and the width older guides leave out of 32-bit types.",
	"Item.source":                "PTX: where the requirement comes from: ptxas (it verified the form) or documentation.",
	"Item.targets":               "PTX target diffs: the targets of the newer side's generation that accept it (sm_90a for wgmma).",
	"Architecture.processors":    "Each target as LLVM's processor table (AMDGPUUsage) describes it, with example products; for PTX each sm_ target with the PTX ISA version that introduced it (release notes).",
	"Architecture.generic":       "LLVM's generic targets with a member in this family, their members and what the table says they exclude.",
	"SASSLine.encoding":          "The instruction words nvdisasm prints, \"0x... 0x...\".",
}

// openAPIDocument builds the OpenAPI 3.1 document.
func openAPIDocument() ([]byte, error) {
	schemas := &schemaSet{defs: map[string]any{}, owner: map[string]reflect.Type{}}
	paths := map[string]any{}
	schemaOf(reflect.TypeOf(apiError{}), schemas)
	for _, op := range apiOperations {
		var params []any
		for _, p := range op.Params {
			params = append(params, map[string]any{
				"name": p.Name, "in": p.In, "required": p.Required, "description": p.Description,
				"schema": map[string]any{"type": p.Type},
			})
		}
		responses := map[string]any{
			"200": map[string]any{
				"description": "OK",
				"content":     map[string]any{"application/json": map[string]any{"schema": schemaOf(reflect.TypeOf(op.Result), schemas)}},
			},
			"304": map[string]any{"description": "Not modified (the ETag names the same database build)."},
		}
		for _, code := range op.Errors {
			desc := map[int]string{400: "Invalid input", 404: "Not found; suggestions lists close matches"}[code]
			responses[itoa(code)] = map[string]any{
				"description": desc,
				"content":     map[string]any{"application/json": map[string]any{"schema": map[string]any{"$ref": "#/components/schemas/Error"}}},
			}
		}
		get := map[string]any{"operationId": op.ID, "summary": op.Summary, "responses": responses}
		if params != nil {
			get["parameters"] = params
		}
		paths[op.Path] = map[string]any{"get": get}
	}
	doc := map[string]any{
		"openapi": "3.1.0",
		"info": map[string]any{
			"title":       "gpuisa reference API",
			"version":     "1",
			"description": "AMD GPU native ISAs and NVIDIA PTX, one JSON document per instruction. Answers carry an ETag keyed to the database build.",
		},
		"paths":      paths,
		"components": map[string]any{"schemas": schemas.defs},
	}
	return json.MarshalIndent(doc, "", "  ")
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// schemaSet is the document's named schemas and the Go type each name
// stands for: two types of one name (ptx.Result and famdiff.Result) must
// not share a schema, or one endpoint's answer would be described by the
// other's.
type schemaSet struct {
	defs  map[string]any
	owner map[string]reflect.Type
}

// name is t's schema name: its Go name, or, when another type registered
// that name first, the name prefixed with its package's (PtxResult).
func (s *schemaSet) name(t reflect.Type) string {
	name := t.Name()
	if name == "apiError" {
		name = "Error"
	}
	if o, ok := s.owner[name]; ok && o != t {
		pkg := t.PkgPath()
		pkg = pkg[strings.LastIndex(pkg, "/")+1:]
		name = strings.ToUpper(pkg[:1]) + pkg[1:] + name
	}
	return name
}

// schemaOf returns the JSON Schema of t, registering named struct types in
// schemas and referring to them by $ref.
func schemaOf(t reflect.Type, schemas *schemaSet) any {
	switch t.Kind() {
	case reflect.Pointer:
		return schemaOf(t.Elem(), schemas)
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.Slice, reflect.Array:
		return map[string]any{"type": "array", "items": schemaOf(t.Elem(), schemas)}
	case reflect.Map:
		if t.Elem().Kind() == reflect.Interface {
			return map[string]any{"type": "object"}
		}
		return map[string]any{"type": "object", "additionalProperties": schemaOf(t.Elem(), schemas)}
	case reflect.Interface:
		return map[string]any{}
	case reflect.Struct:
		if t.Name() == "" {
			return structSchema(t, schemas)
		}
		name := schemas.name(t)
		if _, ok := schemas.owner[name]; !ok {
			schemas.owner[name] = t
			schemas.defs[name] = nil // placeholder breaks recursion
			schemas.defs[name] = structSchema(t, schemas)
		}
		return map[string]any{"$ref": "#/components/schemas/" + name}
	}
	return map[string]any{}
}

func structSchema(t reflect.Type, schemas *schemaSet) map[string]any {
	props := map[string]any{}
	var required []string
	var walk func(reflect.Type)
	walk = func(t reflect.Type) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
				walk(f.Type) // embedded fields are flattened by encoding/json
				continue
			}
			if name == "" {
				name = f.Name
			}
			prop := schemaOf(f.Type, schemas)
			if d, ok := fieldDocs[t.Name()+"."+name]; ok {
				m := map[string]any{"description": d}
				if pm, ok := prop.(map[string]any); ok {
					for k, v := range pm {
						m[k] = v
					}
				}
				prop = m
			}
			props[name] = prop
			if !strings.Contains(opts, "omitempty") {
				required = append(required, name)
			}
		}
	}
	walk(t)
	out := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		out["required"] = required
	}
	return out
}
