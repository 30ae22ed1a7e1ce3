// Starts `gpuisa lsp` for AMDGPU assembly and PTX files and passes it the
// gpuisa.* settings.
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function settings() {
  const c = vscode.workspace.getConfiguration('gpuisa');
  return { gpuisa: { target: c.get('target'), verify: c.get('verify'), url: c.get('url') } };
}

async function activate(context) {
  const c = vscode.workspace.getConfiguration('gpuisa');
  const args = ['lsp'];
  if (c.get('db')) {
    args.push('--db', c.get('db'));
  }
  client = new LanguageClient(
    'gpuisa',
    'gpuisa',
    { command: c.get('path') || 'gpuisa', args },
    {
      documentSelector: [{ language: 'amdgpu' }, { language: 'ptx' }],
      initializationOptions: settings(),
      synchronize: { configurationSection: 'gpuisa' },
    },
  );
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('gpuisa') && client) {
        client.sendNotification('workspace/didChangeConfiguration', { settings: settings() });
      }
    }),
  );
  await client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
