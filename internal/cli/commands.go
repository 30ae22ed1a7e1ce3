package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"github.com/gpuisa/gpuisa/internal/base/errs"
	"github.com/gpuisa/gpuisa/internal/ingest"
	"github.com/gpuisa/gpuisa/internal/isa"
	"github.com/gpuisa/gpuisa/internal/oracle/ptxas"
	"github.com/gpuisa/gpuisa/internal/serve/web"
	"github.com/gpuisa/gpuisa/internal/store"
)

// buildFlags are the build options `build` and `serve` share.
type buildFlags struct {
	sources, llvmDoc, llvmProject, cache, concepts string
	noVerify, noPTXAS, noInstall, allowPartial     bool
	noPrerender, noPageCache                       bool
	ptxas                                          []string
	nvdisasm, timings, semResults                  string
	// provisional is what the database left unverified (serve's own
	// passes; no flag sets it).
	provisional string
}

func (f *buildFlags) register(fs *pflag.FlagSet) {
	fs.StringVar(&f.sources, "sources", "", "upstream sources directory (default $GPUISA_SOURCES, else ../shared/upstream)")
	fs.StringVar(&f.llvmDoc, "llvm-doc", "", "LLVM's AMDGPU syntax pages (default: the llvm-22-doc package's copy)")
	fs.StringVar(&f.llvmProject, "llvm-project", "", "an llvm-project checkout: verbatim examples from llvm/test/MC/AMDGPU")
	fs.StringVar(&f.cache, "cache", "", "llvm-mc result cache directory (default: the user cache directory)")
	fs.StringVar(&f.concepts, "concepts", "", "concept catalogue directory to use instead of the built-in one")
	fs.BoolVar(&f.noVerify, "no-verify", false, "do not run llvm-mc or ptxas (pages then say \"not yet verified\")")
	fs.BoolVar(&f.noPTXAS, "no-ptxas", false, "do not run NVIDIA's ptxas (PTX pages then say \"not verified by ptxas\")")
	fs.BoolVar(&f.noInstall, "no-install", false, "do not install NVIDIA's wheels into the cache when no ptxas is found, nor llvm-22 and llvm-22-doc with apt-get when missing")
	fs.BoolVar(&f.allowPartial, "allow-partial", false, "build from incomplete sources, listing every missing or damaged file as a problem")
	fs.StringSliceVar(&f.ptxas, "ptxas", nil, "ptxas binaries to use (default $GPUISA_PTXAS, else the cache's venv, else PATH)")
	fs.StringVar(&f.nvdisasm, "nvdisasm", "", "nvdisasm binary (default $GPUISA_NVDISASM, else the cache's venv, else PATH)")
	fs.StringVar(&f.timings, "timings", "", "results file of gpuisa ptx bench run on a GPU (default $GPUISA_TIMINGS): PTX pages show the measurements")
	fs.BoolVar(&f.noPrerender, "no-prerender", false, "do not render the site's pages into the database (a server then renders each page on its first request)")
	fs.BoolVar(&f.noPageCache, "no-page-cache", false, "render the site's pages even when the cache directory keeps those this binary rendered from the same rows")
	fs.StringVar(&f.semResults, "sem-results", "", "results file of gpuisa semgpu run on a GPU (default $GPUISA_SEM_RESULTS): the PTX models are held to it on /quality")
}

// options are the build's options: the database at out, messages to log,
// progress (and the pages' rendering) reported to prog.
func (f *buildFlags) options(out string, log io.Writer, prog ingest.Progress) ingest.Options {
	return ingest.Options{Sources: f.sources, Out: out, LLVMDocDir: f.llvmDoc, LLVMProject: f.llvmProject,
		CacheDir: f.cache, ConceptsDir: f.concepts, NoVerify: f.noVerify, AllowPartial: f.allowPartial,
		NoPTXAS: f.noPTXAS, NoInstall: f.noInstall, PTXAS: f.ptxas, NVDisasm: f.nvdisasm, Log: log, Timings: f.timings,
		SemResults: f.semResults, Progress: prog, Answers: prerender(f.noPrerender, prog), AnswersBy: answersBy(f.noPrerender),
		PageCache: f.pageCache(), Provisional: f.provisional}
}

// pageCache is where builds keep the pages they rendered (the cache
// directory's pages/), "" with --no-prerender or --no-page-cache.
func (f *buildFlags) pageCache() string {
	if f.noPrerender || f.noPageCache {
		return ""
	}
	dir := f.cache
	if dir == "" {
		dir = ptxas.DefaultCacheDir()
	}
	return filepath.Join(dir, "pages")
}

// answersBy is the identity of the build's page renderer (web.RendererID:
// the binary's), "" with --no-prerender.
func answersBy(off bool) string {
	if off {
		return ""
	}
	return web.RendererID()
}

// prerender is the build's page renderer: the web server's (web.Prerender),
// so a fresh server answers every page from the database, reporting to
// prog when not nil; nil with --no-prerender.
func prerender(off bool, prog ingest.Progress) store.AnswerFunc {
	if off {
		return nil
	}
	return func(ctx context.Context, r store.Reader, put func(store.Answer) error) error {
		var opts web.PrerenderOptions
		if prog != nil {
			opts.Progress = func(done, total int) {
				if done == 1 {
					prog.Start("rendering pages", total)
				}
				prog.Advance(1)
				if done == total {
					prog.Done()
				}
			}
		}
		return web.Prerender(ctx, r, put, opts)
	}
}

func newBuildCmd(e *env) *cobra.Command {
	var bf buildFlags
	var out, cpuProfile, memProfile string
	var quiet bool
	cmd := &cobra.Command{
		Use:   "build [--sources DIR] [--out FILE]",
		Short: "Build the database from the upstream sources",
		Long: `Build reads the upstream sources — AMD's ISA guides (amd-isa-manuals/<family>/README.md),
AMD's machine-readable ISA XML (amd-mrisa-xml/*.xml or the official .zip), NVIDIA's
PTX ISA documentation (ptx-isa-*/), LLVM's AMDGPU syntax pages (llvm-22-doc) and the
concept catalogue — merges them, assembles an example of every AMD instruction with
llvm-mc on every gfx target, every documented PTX form and example statement with
NVIDIA's ptxas on every sm_ target (installing the pinned CUDA wheels into the cache
when no ptxas is found and pip can reach the index, and Debian's llvm-22 and llvm-22-doc
with apt-get when they are missing and it runs as root; --no-install skips both), lists
their SASS with nvdisasm (results are cached, so a rebuild only runs what changed) and
writes one SQLite database.

Sources come from --sources, else $GPUISA_SOURCES, else ../shared/upstream. The
database goes to --out, else --db, else $GPUISA_DB, else ./gpuisa.db. It is written to
a temporary file and renamed into place: a failed or interrupted build leaves the
previous database untouched. Exit status 3 names the upstream file and line that
could not be parsed. An LLVM older than 22 found instead is used only for what it can
check; what it leaves unverified (families, targets, why, the fix) is printed once and
shown on /quality and /about.

Before reading, the sources are checked against what a complete tree holds: the
twelve AMD guides (each holding every section its table of contents lists), the PTX
documentation tree (its index.json, the directories it lists, instruction sections)
and the XML files when present; every file regular (never a device, FIFO or socket),
at most 32 MiB (a guide), 8 MiB (a PTX section) or 256 MiB (XML), and text files
UTF-8 without NUL bytes or U+FFFD. Anything else fails the build with exit status 3
naming the file and line; --allow-partial builds without it and lists every gap
among the upstream problems (gpuisa quality, /quality).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if out == "" {
				out = e.dbPath
			}
			limitBuildMemory()
			stop, err := startProfiles(cpuProfile, memProfile)
			if err != nil {
				return err
			}
			_, err = runBuild(cmd.Context(), e, &bf, out, quiet)
			if perr := stop(); err == nil {
				err = perr
			}
			return err
		},
	}
	bf.register(cmd.Flags())
	cmd.Flags().StringVar(&out, "out", "", "database file to write")
	cmd.Flags().StringVar(&cpuProfile, "cpuprofile", "", "write a CPU profile of the build to this file (go tool pprof reads it)")
	cmd.Flags().StringVar(&memProfile, "memprofile", "", "write a heap profile of the build, taken near its largest in-use heap, to this file")
	cmd.Flags().BoolVarP(&quiet, "quiet", "q", false, "print only errors")
	return cmd
}

// progress is how a long command reports on stderr: nothing when quiet, a
// bar on a terminal, else a line per step.
func (e *env) progress(quiet bool) ingest.Progress {
	switch {
	case quiet:
		return nil
	case isTerminal(e.stderr):
		return &barProgress{w: e.stderr}
	}
	return &ingest.LineProgress{W: e.stderr}
}

func runBuild(ctx context.Context, e *env, bf *buildFlags, out string, quiet bool) (*ingest.Report, error) {
	rep, err := ingest.Run(ctx, bf.options(out, e.stderr, e.progress(quiet)))
	if err != nil {
		return nil, err
	}
	if !quiet {
		var parts []string
		total := 0
		for _, a := range isa.Archs() {
			if n, ok := rep.Counts[a.ID]; ok {
				parts = append(parts, fmt.Sprintf("%s %d", a.ID, n))
				total += n
			}
		}
		fmt.Fprintf(e.stderr, "wrote %s: %d instructions (%s) in %s; %d upstream problems noted\n",
			out, total, strings.Join(parts, ", "), rep.Elapsed.Round(time.Millisecond), len(rep.Problems))
	}
	return rep, nil
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// barProgress draws a progress bar on a terminal.
type barProgress struct {
	w   io.Writer
	bar *progressbar.ProgressBar
}

func (p *barProgress) Start(step string, total int) {
	p.bar = progressbar.NewOptions(total, progressbar.OptionSetWriter(p.w), progressbar.OptionSetDescription(step),
		progressbar.OptionShowCount(), progressbar.OptionClearOnFinish())
}
func (p *barProgress) Advance(n int) { _ = p.bar.Add(n) }
func (p *barProgress) Done() {
	_ = p.bar.Finish()
}

var _ = http.StatusOK

func newArchsCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "archs [--json]",
		Short: "List the architecture families and their instruction counts",
		Args:  cobra.NoArgs,
		RunE: e.withDB(func(cmd *cobra.Command, _ []string, db *store.DB) error {
			archs, err := db.Archs(cmd.Context())
			if err != nil {
				return err
			}
			if asJSON {
				for i := range archs {
					archs[i].Formats = nil
				}
				return e.writeJSON(archs)
			}
			tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tNAME\tVENDOR\tINSTRUCTIONS\tTARGETS")
			for _, a := range archs {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", a.ID, a.Name, a.Vendor, a.Count, strings.Join(a.Targets, " "))
			}
			return tw.Flush()
		}),
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func newListCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list ARCH [--json]",
		Short: "List the instructions of one family",
		Args:  cobra.ExactArgs(1),
		RunE: e.withDB(func(cmd *cobra.Command, args []string, db *store.DB) error {
			list, err := db.List(cmd.Context(), args[0])
			if err != nil {
				return err
			}
			if asJSON {
				return e.writeJSON(list)
			}
			tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
			for _, s := range list {
				fmt.Fprintf(tw, "%s\t%s\t%s\n", s.Name, s.Category, truncate(s.Summary, 90))
			}
			return tw.Flush()
		}),
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func newShowCmd(e *env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show ARCH MNEMONIC [--json]",
		Short: "Show one instruction",
		Long: `Show prints one instruction: summary, aliases, encodings with their bit fields,
opcodes in every family, operands, semantics, examples, target compatibility,
related concepts and sources. The mnemonic is case-insensitive and may carry an
assembler suffix (v_max_f32_e64) or, for PTX, modifiers (max.f32). --json prints
the same document as the API (/api/v1/instructions/ARCH/MNEMONIC).`,
		Args: cobra.ExactArgs(2),
		RunE: e.withDB(func(cmd *cobra.Command, args []string, db *store.DB) error {
			in, err := db.Instruction(cmd.Context(), args[0], args[1])
			if err != nil {
				return targetNotInstruction(cmd.Context(), db, args[1], err)
			}
			if asJSON {
				return e.writeJSON(in)
			}
			return printInstruction(e.stdout, in)
		}),
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

func newSearchCmd(e *env) *cobra.Command {
	var asJSON bool
	var arch string
	var limit int
	cmd := &cobra.Command{
		Use:   "search QUERY [--arch ARCH] [--json]",
		Short: "Search instructions by name, prefix, typo, what they do, or machine code",
		Long: `Search finds instructions by name, name prefix or typo, by what people call the
operation ("count leading zeros", "popcount", "wmma": gpuisa's synonym table), and by
words of their descriptions. A query that is machine code (hex words such as 0x160a04c1,
or an llvm-mc byte list) is also decoded on every AMD family (--arch: on that one); the
decoded instructions come first, each with the families that read the words the same way.
A family, gfx or sm_ target, or product among the words scopes the search ("v_max_f32 cdna3",
"MI300X mfma", "H100 wgmma"); a product alone lists its targets. --json prints
{"query", "scope", "targets", "hits"}: what the text lists, in its order.`,
		Args: cobra.MinimumNArgs(1),
		RunE: e.withDB(func(cmd *cobra.Command, args []string, db *store.DB) error {
			q := strings.Join(args, " ")
			decoded, incomplete, err := decodedHits(cmd.Context(), db, q, arch)
			if err != nil {
				return err
			}
			hits, err := db.Search(cmd.Context(), q, store.SearchOptions{Arch: arch, Limit: limit})
			archs, _ := db.Archs(cmd.Context())
			targets := isa.MatchProcessors(archs, q)
			if err != nil && len(decoded) == 0 && len(targets) == 0 && len(incomplete) == 0 {
				return err
			}
			hits = append(decoded, hits...)
			if asJSON {
				doc := searchDocument(db, q, hits, targets)
				doc.Incomplete = incomplete
				if len(hits) == 0 && len(targets) == 0 && len(incomplete) == 0 {
					doc.NearTargets = isa.MatchProcessorsNear(archs, q, 4)
				}
				return e.writeJSON(doc)
			}
			for _, w := range incomplete {
				// Half of a 64-bit instruction: say what it needs.
				fmt.Fprintf(e.stdout, "%s, on %s: paste the words that follow it too\n", w.Message, strings.Join(w.Archs, ", "))
			}
			if len(hits) == 0 && len(targets) == 0 {
				// A product or target a letter or two off ("mi300").
				if near := nearTargetNames(archs, q); near != "" && len(incomplete) == 0 {
					fmt.Fprintf(e.stderr, "no matches; did you mean the target %s?\n", near)
					return nil
				}
				if len(incomplete) == 0 {
					fmt.Fprintln(e.stderr, "no matches")
				}
				return nil
			}
			tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
			for _, m := range targets {
				// The targets a product name leads to (LLVM's processor table).
				fmt.Fprintf(tw, "%s\t%s\ttarget: %s\n", m.Target, m.Arch, m.Matched)
			}
			for _, h := range hits {
				archs := h.Arch
				if len(h.Archs) > 1 {
					archs = fmt.Sprintf("%s (+%d)", h.Arch, len(h.Archs)-1)
				}
				about := h.Summary.Summary
				if strings.HasPrefix(h.Why, "decodes as ") {
					about = h.Why // the machine code's instruction, as the decoder reads it
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\n", h.Name, archs, truncate(about, 80))
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			// An exact name is in every family listed, not only the
			// newest the table shows it in: say which.
			for _, h := range hits {
				if h.Why == "name" && len(h.Archs) > 1 {
					fmt.Fprintf(e.stdout, "%s is in %d families: %s\n", h.Name, len(h.Archs), strings.Join(h.Archs, ", "))
				}
			}
			return nil
		}),
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().StringVar(&arch, "arch", "", "search one family only")
	cmd.Flags().IntVar(&limit, "limit", 20, "maximum number of results")
	return cmd
}

// searchJSON is what `search --json` prints: what the text lists, in its
// order (the targets a product names, then the decoded words and the
// hits, and the note that the words are half an instruction), with the
// keys of /api/v1/search's answer.
type searchJSON struct {
	Query      string               `json:"query"`
	Scope      *web.SearchScope     `json:"scope,omitempty"`
	Targets    []isa.ProcessorMatch `json:"targets"`
	Hits       []isa.SearchHit      `json:"hits"`
	Incomplete []web.IncompleteWord `json:"incomplete,omitempty"`
	// NearTargets are the targets the text suggests ("did you mean the
	// target gfx942?") when nothing else answers the query ("mi300").
	NearTargets []isa.ProcessorMatch `json:"near_targets,omitempty"`
}

func searchDocument(db *store.DB, q string, hits []isa.SearchHit, targets []isa.ProcessorMatch) searchJSON {
	doc := searchJSON{Query: q, Targets: targets, Hits: hits}
	if sc := db.ScopeOf(q); sc.Arch != "" {
		doc.Scope = &web.SearchScope{Arch: sc.Arch, Words: sc.Words, Target: sc.Target}
	}
	if doc.Targets == nil {
		doc.Targets = []isa.ProcessorMatch{}
	}
	if doc.Hits == nil {
		doc.Hits = []isa.SearchHit{}
	}
	return doc
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// printInstruction renders an instruction for a terminal, in the page's
// order.
func printInstruction(w io.Writer, in *isa.Instruction) error {
	// bufio.Writer keeps the first write error and writes nothing after it.
	bw := bufio.NewWriter(w)
	unitKind := "GPU Native ISA"
	if in.Kind == isa.KindVirtual {
		unitKind = "GPU Virtual ISA"
	}
	fmt.Fprintf(bw, "%s · %s · %s · %s\n", in.Name, unitKind, in.Vendor, nonEmpty(in.Unit, "-"))
	fmt.Fprintf(bw, "%s — %s\n", in.Arch, nonEmpty(in.Category, "uncategorised"))
	if in.Summary != "" {
		fmt.Fprintf(bw, "\n%s\n", in.Summary)
	}
	if f := in.DescriptionFrom; f != nil {
		fmt.Fprintf(bw, "(AMD's description of %s in %s; this family's guide gives %s)\n", f.Name, f.Arch, f.Why)
	}
	for _, a := range in.Aliases {
		fmt.Fprintf(bw, "Also written as %s (%s)\n", a.Name, a.Note)
	}
	if len(in.Encodings) > 0 {
		fmt.Fprintf(bw, "\nEncodings\n")
		for _, enc := range in.Encodings {
			fmt.Fprintf(bw, "  %-10s width %-3d opcode %-5d identifier %s\n", enc.Name, enc.Width, enc.Opcode, nonEmpty(enc.Identifier, "-"))
			if enc.IdentifierCheck != "" {
				fmt.Fprintf(bw, "             %s\n", enc.IdentifierCheck)
			}
			if fields := fieldList(enc.Fields); fields != "" {
				fmt.Fprintf(bw, "             %s\n", fields)
			}
			if a := enc.Assembler; a != nil {
				verdict := "agrees"
				if !a.Agrees {
					verdict = "differs: identifying bits " + a.Identifier
				}
				fmt.Fprintf(bw, "             llvm-mc: %s on %s is %s (%s)\n", a.Asm, a.Target, a.Encoding, verdict)
			}
			if d := enc.Documented; d != nil {
				fmt.Fprintf(bw, "             documented variant (AMD's guide, %s:%d), identifier %s:\n", d.Prov.File, d.Prov.Line, nonEmpty(d.Identifier, "-"))
				fmt.Fprintf(bw, "               %s\n", fieldList(d.Fields))
				for _, c := range d.Changes {
					fmt.Fprintf(bw, "               verified: %s\n", c)
				}
			}
		}
	}
	if len(in.Opcodes) > 1 {
		fmt.Fprintf(bw, "\nOpcodes in other families\n")
		var archs []string
		for a := range in.Opcodes {
			archs = append(archs, a)
		}
		order := map[string]int{}
		for _, a := range isa.Archs() {
			order[a.ID] = a.Order
		}
		sort.Slice(archs, func(i, j int) bool { return order[archs[i]] < order[archs[j]] })
		for _, a := range archs {
			var parts []string
			for f, op := range in.Opcodes[a] {
				parts = append(parts, fmt.Sprintf("%s %d", f, op))
			}
			sort.Strings(parts)
			fmt.Fprintf(bw, "  %-8s %s\n", a, strings.Join(parts, ", "))
		}
	}
	if len(in.Operands) > 0 {
		fmt.Fprintf(bw, "\nOperands\n")
		for _, o := range in.Operands {
			rw := ""
			if o.Input {
				rw += "read"
			}
			if o.Output {
				if rw != "" {
					rw += "/"
				}
				rw += "written"
			}
			size := ""
			switch {
			case o.SizeWave64 > 0:
				size = fmt.Sprintf("%d bits (wave32), %d (wave64)", o.SizeWave32, o.SizeWave64)
			case o.Size > 0:
				size = fmt.Sprintf("%d bits", o.Size)
			}
			if o.Optional {
				rw += ", optional"
			}
			fmt.Fprintf(bw, "  %-8s %-13s %-14s %-10s %s\n", o.Name, rw, o.DataFormat, o.OperandType, size)
		}
	}
	if len(in.Forms) > 0 {
		fmt.Fprintf(bw, "\nForms (%d)\n", len(in.Forms))
		for _, f := range in.Forms {
			fmt.Fprintf(bw, "  %-60s %s\n", f.Syntax, formRequirement(f))
		}
	}
	if in.Semantics != "" {
		fmt.Fprintf(bw, "\nSemantics\n%s\n", indent(in.Semantics, "  "))
	} else if in.Description != "" {
		fmt.Fprintf(bw, "\nDescription\n%s\n", indent(in.Description, "  "))
	}
	if len(in.Examples) > 0 {
		fmt.Fprintf(bw, "\nExamples\n")
		for _, ex := range in.Examples {
			fmt.Fprintf(bw, "  %s    // %s\n", strings.ReplaceAll(ex.Asm, "\n", "\n  "), ex.Source)
		}
	}
	if len(in.Targets) > 0 {
		var sup []string
		for t, s := range in.Targets {
			if s == "supported" {
				sup = append(sup, t)
			}
		}
		sort.Strings(sup)
		fmt.Fprintf(bw, "\nSupported on: %s\n", strings.Join(sup, " "))
	}
	for _, c := range in.Concepts {
		var names []string
		for _, m := range c.Members {
			names = append(names, m.Name)
		}
		fmt.Fprintf(bw, "Related: %s — %s — %s\n", c.Name, c.Relation, strings.Join(names, ", "))
	}
	for _, c := range in.Conflicts {
		if c.CorrectedBy != "" {
			fmt.Fprintf(bw, "\nCorrected by %s: %s: ", c.CorrectedBy, c.Fact)
		} else {
			fmt.Fprintf(bw, "\nSources disagree on %s: ", c.Fact)
		}
		for i, v := range c.Values {
			if i > 0 {
				fmt.Fprintf(bw, " vs ")
			}
			fmt.Fprintf(bw, "%q (%s %s:%d)", truncate(v.Value, 40), v.Prov.Source, v.Prov.File, v.Prov.Line)
		}
		fmt.Fprintf(bw, "\n")
	}
	if len(in.Sources) > 0 {
		fmt.Fprintf(bw, "\nSources\n")
		for _, s := range in.Sources {
			fmt.Fprintf(bw, "  %s %s:%d\n", s.Source, s.File, s.Line)
		}
	}
	return bw.Flush()
}

// fieldList writes a layout as "OP[21:14] ENCODING[31:24]=11101110 ...",
// an immediate's documented sub-fields in braces after it.
func fieldList(fs []isa.Field) string {
	var out []string
	for _, f := range fs {
		s := f.Name + "[" + rangeText(f) + "]"
		if f.Fixed != "" {
			s += "=" + f.Fixed
		}
		if len(f.Parts) > 0 {
			var ps []string
			for _, p := range f.Parts {
				ps = append(ps, p.Name+"["+rangeText(p)+"]")
			}
			s += "{" + strings.Join(ps, " ") + "}"
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

func rangeText(f isa.Field) string {
	if len(f.Ranges) > 1 {
		var rs []string
		for _, r := range f.Ranges {
			rs = append(rs, fmt.Sprintf("%d:%d", r.MSB, r.LSB))
		}
		return strings.Join(rs, ",")
	}
	return fmt.Sprintf("%d:%d", f.MSB, f.LSB)
}

func nonEmpty(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+prefix)
}

var _ = errs.ExitCode

// formRequirement is what a PTX form needs, as show prints it: a form
// ptxas rejects on every target needs nothing it could meet, so it says
// so, with the documentation's claim beside.
func formRequirement(f isa.Form) string {
	if f.Check == nil || f.Check.Status != isa.PTXRejected {
		return fmt.Sprintf("PTX %-4s %s", f.PTXVersion, f.MinTarget)
	}
	s := "rejected by ptxas"
	v, t := f.DocPTXVersion, f.DocMinTarget
	if v == "" && t == "" { // a database from before rejected forms lost their requirements
		v, t = f.PTXVersion, f.MinTarget
	}
	if v != "" || t != "" {
		s += " (documented: PTX " + strings.TrimSpace(v+", "+t) + ")"
	}
	if f.Check != nil && f.Check.Message != "" {
		s += ": " + f.Check.Message
	}
	return s
}

// nearTargetNames lists the targets a name close to q leads to,
// "gfx942 (AMD Instinct MI300X)"; "" for none.
func nearTargetNames(archs []isa.Architecture, q string) string {
	var names []string
	for _, m := range isa.MatchProcessorsNear(archs, q, 4) {
		about := []string{m.Matched}
		for _, a := range archs {
			for _, p := range a.Processors {
				if a.ID == m.Arch && p.Target == m.Target {
					if ps := isa.ProductsOf(a, p); len(ps) > 0 {
						about = ps[:min(3, len(ps))]
					}
				}
			}
		}
		names = append(names, m.Target+" ("+strings.Join(about, ", ")+")")
	}
	return strings.Join(names, "; ")
}

// targetNotInstruction adds to a not-found error of show that the name is
// a target ("sm_90", "MI300X") or close to one, with the command that
// lists it.
func targetNotInstruction(ctx context.Context, db *store.DB, name string, err error) error {
	if errs.KindOf(err) != errs.KindNotFound {
		return err
	}
	archs, aerr := db.Archs(ctx)
	if aerr != nil {
		return err
	}
	if ms := isa.MatchProcessors(archs, name); len(ms) > 0 {
		return errs.NotFound(errs.SuggestionsOf(err), "%v; %s is a target (%s), not an instruction: gpuisa search %s", err, name, ms[0].Arch, name)
	}
	if near := nearTargetNames(archs, name); near != "" {
		return errs.NotFound(errs.SuggestionsOf(err), "%v; the target %s?", err, near)
	}
	return err
}
