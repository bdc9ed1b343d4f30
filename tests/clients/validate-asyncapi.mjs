// Parse and validate an AsyncAPI document with the AsyncAPI parser; print its diagnostics as
// JSON lines (severity 0 error, 1 warning, 2 information, 3 hint) and exit 1 on any error.
import { readFileSync } from 'node:fs';
import { Parser } from '@asyncapi/parser';

const [path] = process.argv.slice(2);
const parser = new Parser();
const { document, diagnostics } = await parser.parse(readFileSync(path, 'utf8'));
for (const diagnostic of diagnostics) {
  console.log(JSON.stringify({
    severity: diagnostic.severity,
    code: diagnostic.code,
    message: diagnostic.message,
    path: diagnostic.path.join('/'),
  }));
}
if (document === undefined) process.exit(1);
console.log(JSON.stringify({ channels: document.channels().length, messages: document.allMessages().length }));
