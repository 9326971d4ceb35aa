// Fails the build when the source uses an interface text key that en.ts does not define (zh-CN.ts is held to
// en.ts's keys by its type). Keys built at run time (`status.${status}`) are checked up to their static prefix.
import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'

const source = readFileSync(new URL('../src/i18n/en.ts', import.meta.url), 'utf8')
const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext } })
const messages = (await import(`data:text/javascript,${encodeURIComponent(outputText)}`)).default

function lookup(path) {
  return path.split('.').reduce((node, part) => (node && typeof node === 'object' ? node[part] : undefined), messages)
}

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : /\.(vue|ts)$/.test(name) ? [path] : []
  })
}

// t('a.b'), te('a.b'), tOr('a.b', …), t(`a.${x}`), and label: 'nav.jobs' / title: 'charts.loss' entries of lookup tables.
const CALL = /\b(?:t|te|tOr)\(\s*(['`])((?:(?!\1).)+)\1/g
const TABLE = /\b(?:label|title): '((?:nav|charts)\.[A-Za-z.]+)'/g
const problems = []
for (const file of files(new URL('../src', import.meta.url).pathname)) {
  const text = readFileSync(file, 'utf8')
  for (const match of [...text.matchAll(CALL), ...text.matchAll(TABLE)]) {
    const key = match[2] ?? match[1]
    const dynamic = key.indexOf('${')
    const path = dynamic >= 0 ? key.slice(0, dynamic).replace(/\.$/, '') : key
    const found = lookup(path)
    const ok = dynamic >= 0 ? found && typeof found === 'object' : typeof found === 'string'
    if (!ok && !(dynamic >= 0 && /^(?:te|tOr)\(/.test(match[0]))) problems.push(`${file}: ${key}`)
  }
}
if (problems.length) {
  console.error(`Interface text keys missing from src/i18n/en.ts:\n  ${problems.join('\n  ')}`)
  process.exit(1)
}
