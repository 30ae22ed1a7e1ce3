-- gpuisa's language server for AMDGPU assembly (.s .asm .gcn .amdgcn) and
-- PTX (.ptx) in Neovim 0.7 or newer, with its built-in LSP client.
-- Put this file in ~/.config/nvim/plugin/ and the gpuisa checkout (where
-- `go build -o gpuisa ./cmd/gpuisa` and `./gpuisa build` put the binary and
-- gpuisa.db, which the server finds beside itself) on PATH; set
-- vim.g.gpuisa_cmd to change the command and vim.g.gpuisa_settings for the
-- server's settings.
local cmd = vim.g.gpuisa_cmd or { 'gpuisa', 'lsp' }
local settings = vim.g.gpuisa_settings or { gpuisa = { target = '', verify = false } }

vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
  pattern = { '*.ptx' },
  callback = function() vim.bo.filetype = 'ptx' end,
})
vim.api.nvim_create_autocmd({ 'BufRead', 'BufNewFile' }, {
  pattern = { '*.gcn', '*.amdgcn' },
  callback = function() vim.bo.filetype = 'asm' end,
})

local client_id
vim.api.nvim_create_autocmd('FileType', {
  pattern = { 'asm', 'ptx' },
  callback = function(args)
    if vim.fn.executable(cmd[1]) == 0 then
      vim.notify_once('gpuisa: ' .. cmd[1] .. ' is not on PATH: run `go build -o gpuisa ./cmd/gpuisa` in the gpuisa checkout and put it on PATH, or set vim.g.gpuisa_cmd', vim.log.levels.WARN)
      return
    end
    if not client_id or vim.lsp.get_client_by_id(client_id) == nil then
      client_id = vim.lsp.start_client({
        name = 'gpuisa',
        cmd = cmd,
        root_dir = vim.fn.getcwd(),
        init_options = settings,
        settings = settings,
      })
    end
    if client_id then
      vim.lsp.buf_attach_client(args.buf, client_id)
      vim.bo[args.buf].omnifunc = 'v:lua.vim.lsp.omnifunc'
    end
  end,
})
