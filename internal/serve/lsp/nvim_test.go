package lsp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// nvimDriver opens an AMDGPU and a PTX file with the plugin loaded, waits
// for their diagnostics and asks for a hover and a completion through
// Neovim's own LSP client; it writes what it got as JSON.
const nvimDriver = `
local out = {}
local function open(path)
  vim.cmd('edit ' .. vim.fn.fnameescape(path))
  local buf = vim.api.nvim_get_current_buf()
  vim.wait(30000, function() return #vim.lsp.buf_get_clients(buf) > 0 end, 20)
  vim.wait(30000, function() return #vim.diagnostic.get(buf) > 0 end, 20)
  return buf
end
local function request(buf, method, line, col)
  local params = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = line, character = col } }
  local res = vim.lsp.buf_request_sync(buf, method, params, 30000)
  for _, r in pairs(res or {}) do
    if r.result then return r.result end
  end
  return nil
end
local function summary(buf, hline, hcol, cline, ccol)
  local s = { diagnostics = {}, hover = '', completion = {}, filetype = vim.bo[buf].filetype }
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(s.diagnostics, { line = d.lnum, message = d.message })
  end
  local h = request(buf, 'textDocument/hover', hline, hcol)
  if h then s.hover = h.contents.value or '' end
  local c = request(buf, 'textDocument/completion', cline, ccol)
  if c then
    for _, it in ipairs(c.items or c) do table.insert(s.completion, it.label) end
  end
  return s
end
out.amd = summary(open(AMD_FILE), 1, 2, 3, 6)
out.ptx = summary(open(PTX_FILE), 6, 2, 8, 5)
out.operands = summary(open(OPERANDS_FILE), 1, 2, 3, 6)
vim.fn.writefile({ vim.fn.json_encode(out) }, OUT_FILE)
vim.cmd('qa!')
`

// TestNeovim starts Debian's Neovim headless with editors/neovim/gpuisa.lua
// (the README's setup) on a .s and a .ptx file and checks what its LSP
// client shows: hover text, a diagnostic and a completion item in each.
func TestNeovim(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Skip("nvim not installed (Debian's neovim package; .ci/run installs it): skipping the Neovim client test")
	}
	db := realDB(t)
	dir := t.TempDir()
	amd := filepath.Join(dir, "kernel.s")
	ptxFile := filepath.Join(dir, "kernel.ptx")
	operands := filepath.Join(dir, "operands.s")
	out := filepath.Join(dir, "out.json")
	write := func(p, s string) {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(amd, "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx950\"\n"+
		"\tv_max_f32 v1, v2, v3\n"+
		"\tv_mad_mix_f32 v0, v1, v2, v3\n"+
		"\tv_max\n")
	// Issue 29: the shipped config (verify off) must flag an operand
	// missing and a 64-bit register in a 32-bit slot, once each.
	write(operands, "\t.amdgcn_target \"amdgcn-amd-amdhsa--gfx1100\"\n"+
		"\tv_add_f32 v1, v2\n"+
		"\tv_add_f32 v1, v[2:3], v4\n"+
		"\tv_add_f32 v1, v2, v3\n")
	write(ptxFile, ".version 6.0\n.target sm_70\n.address_size 64\n.visible .entry k()\n{\n"+
		"\t.reg .f32 %f<4>;\n"+
		"\tmax.NaN.f32 %f3, %f1, %f2;\n"+
		"\tret;\n"+
		"\tmax.\n}\n")
	argv, _ := json.Marshal([]string{"lsp", "--db", db})
	quote := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	init := "vim.g.gpuisa_cmd = { " + quote(os.Args[0]) + " }\n" +
		"dofile(" + quote(filepath.Join("..", "..", "..", "editors", "neovim", "gpuisa.lua")) + ")\n"
	abs, _ := filepath.Abs(filepath.Join("..", "..", "..", "editors", "neovim", "gpuisa.lua"))
	init = strings.Replace(init, quote(filepath.Join("..", "..", "..", "editors", "neovim", "gpuisa.lua")), quote(abs), 1)
	write(filepath.Join(dir, "init.lua"), init)
	driver := "AMD_FILE = " + quote(amd) + "\nPTX_FILE = " + quote(ptxFile) + "\nOPERANDS_FILE = " + quote(operands) + "\nOUT_FILE = " + quote(out) + "\n" + nvimDriver
	write(filepath.Join(dir, "driver.lua"), driver)

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-u", filepath.Join(dir, "init.lua"), "-c", "luafile "+filepath.Join(dir, "driver.lua"))
	cmd.Env = append(os.Environ(), serveEnv+"="+string(argv), "XDG_STATE_HOME="+dir, "XDG_CACHE_HOME="+dir, "XDG_DATA_HOME="+dir)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Stdout = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("nvim: %v\n%s", err, stderr.String())
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("nvim wrote no result: %v\n%s", err, stderr.String())
	}
	var got map[string]struct {
		Diagnostics []struct {
			Line    int    `json:"line"`
			Message string `json:"message"`
		} `json:"diagnostics"`
		Hover      string   `json:"hover"`
		Completion []string `json:"completion"`
		Filetype   string   `json:"filetype"`
	}
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("%v: %s", err, raw)
	}
	for _, c := range []struct{ file, hover, diag, item string }{
		{"amd", "VOP2 opcode 11", "not supported on gfx950", "v_max_f32"},
		{"ptx", "max{.ftz}{.NaN}{.xorsign.abs}.f32", "needs PTX ISA 7.0 and sm_80", ".NaN"},
	} {
		g := got[c.file]
		if !strings.Contains(g.Hover, c.hover) {
			t.Errorf("%s (filetype %s): hover lacks %q:\n%s", c.file, g.Filetype, c.hover, g.Hover)
		}
		found := false
		for _, d := range g.Diagnostics {
			found = found || strings.Contains(d.Message, c.diag)
		}
		if !found {
			t.Errorf("%s: no diagnostic saying %q: %+v", c.file, c.diag, g.Diagnostics)
		}
		if !containsString(g.Completion, c.item) {
			t.Errorf("%s: completion lacks %q: %q", c.file, c.item, g.Completion)
		}
	}
	perLine := map[int][]string{}
	for _, d := range got["operands"].Diagnostics {
		perLine[d.Line] = append(perLine[d.Line], d.Message)
	}
	for line, want := range map[int]string{1: "takes 3 operands", 2: "v[2:3] is 2 registers"} {
		if msgs := perLine[line]; len(msgs) != 1 || !strings.Contains(msgs[0], want) {
			t.Errorf("operands.s line %d: diagnostics %q, want one saying %q", line+1, msgs, want)
		}
	}
	if msgs := perLine[3]; len(msgs) != 0 {
		t.Errorf("operands.s line 4 (valid): diagnostics %q", msgs)
	}
}

// TestREADMEHasNeovimSetup: the README shows the plugin this test runs.
func TestREADMEHasNeovimSetup(t *testing.T) {
	plugin, err := os.ReadFile("../../../editors/neovim/gpuisa.lua")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), strings.TrimSpace(string(plugin))) {
		t.Error("README.md does not show editors/neovim/gpuisa.lua as it is")
	}
}
