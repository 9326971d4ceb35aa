// The first rows of a chosen file, read in the browser so that POST /datasets/detect can propose its format before
// the file is sent: JSON Lines line by line and CSV record by record from the file's first 64 KiB, a JSON array by
// parsing the file whole when it is small. Parquet and Arrow are binary: their format is detected on upload.

export const SAMPLE_BYTES = 64 * 1024
export const WHOLE_JSON_BYTES = 2 * 1024 * 1024
/** As many rows as POST /datasets/detect takes. */
export const MAX_SAMPLE_ROWS = 100

type Row = Record<string, unknown>

/** Why a record is no row, as a key of the `detect.problems` texts and its parameters. */
export interface SampleProblem {
  code: 'invalidJson' | 'invalidJsonFile' | 'notObject' | 'notArray' | 'fieldCount' | 'noHeader' | 'noRows'
  params: Record<string, string | number>
}

export type Sample =
  /** The rows read; `skipped`: the first record that is no row (invalid JSON, a line that is no object…). */
  | { status: 'rows'; rows: Row[]; skipped: SampleProblem | null }
  /** Parquet, Arrow, or a JSON array too large to parse here: the server detects the format on upload. */
  | { status: 'on-upload' }
  /** Nothing could be read as rows. */
  | { status: 'unreadable'; problem: SampleProblem }

const problem = (code: SampleProblem['code'], params: SampleProblem['params'] = {}): SampleProblem => ({ code, params })

function sampled(rows: Row[], skipped: SampleProblem | null): Sample {
  if (rows.length) return { status: 'rows', rows, skipped }
  return { status: 'unreadable', problem: skipped ?? problem('noRows') }
}

function isRow(value: unknown): value is Row {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function problemOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** The file's first bytes as text, and whether that is the whole file (if not, the last line may be cut off). */
async function start(file: File): Promise<{ text: string; whole: boolean }> {
  const text = await file.slice(0, SAMPLE_BYTES).text()
  return { text: text.replace(/^\uFEFF/, ''), whole: file.size <= SAMPLE_BYTES }
}

export function jsonLinesRows(text: string, whole: boolean): Sample {
  const lines = text.split('\n')
  if (!whole) lines.pop() // cut off by the sample's end
  const rows: Row[] = []
  let skipped: SampleProblem | null = null
  for (const [index, line] of lines.entries()) {
    if (rows.length >= MAX_SAMPLE_ROWS) break
    if (!line.trim()) continue
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch (error) {
      skipped ??= problem('invalidJson', { row: index + 1, detail: problemOf(error) })
      continue
    }
    if (isRow(value)) rows.push(value)
    else skipped ??= problem('notObject', { row: index + 1 })
  }
  return sampled(rows, skipped)
}

export function jsonArrayRows(text: string): Sample {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    return { status: 'unreadable', problem: problem('invalidJsonFile', { detail: problemOf(error) }) }
  }
  if (!Array.isArray(value)) return { status: 'unreadable', problem: problem('notArray') }
  const rows: Row[] = []
  let skipped: SampleProblem | null = null
  for (const [index, item] of value.slice(0, MAX_SAMPLE_ROWS).entries()) {
    if (isRow(item)) rows.push(item)
    else skipped ??= problem('notObject', { row: index + 1 })
  }
  return sampled(rows, skipped)
}

/**
 * CSV records as the server reads them (Python's csv module, RFC 4180 quoting): a field in double quotes may hold
 * commas, line breaks and doubled quotes; a quote inside an unquoted field is text; blank lines are no records.
 */
export function csvRecords(text: string): string[][] {
  const records: string[][] = []
  let fields: string[] = []
  let field = ''
  let quoted = false // inside a quoted field
  let fresh = true // nothing of the field read yet
  let blank = true // nothing of the record read yet
  const endRecord = () => {
    if (!blank) records.push([...fields, field])
    fields = []
    field = ''
    fresh = true
    blank = true
  }
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (quoted) {
      if (c !== '"') field += c
      else if (text[i + 1] === '"') field += text[++i]
      else quoted = false
    } else if (c === '"' && fresh) {
      quoted = true
      fresh = false
      blank = false
    } else if (c === ',') {
      fields.push(field)
      field = ''
      fresh = true
      blank = false
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++
      endRecord()
    } else {
      field += c
      fresh = false
      blank = false
    }
  }
  endRecord()
  return records
}

export function csvRows(text: string, whole: boolean): Sample {
  const records = csvRecords(text)
  if (!whole) records.pop() // cut off by the sample's end
  const header = records.shift()
  if (!header) return { status: 'unreadable', problem: problem('noHeader') }
  const rows: Row[] = []
  let skipped: SampleProblem | null = null
  for (const [index, record] of records.slice(0, MAX_SAMPLE_ROWS).entries()) {
    if (record.length === header.length) rows.push(Object.fromEntries(header.map((name, column) => [name, record[column]])))
    else skipped ??= problem('fieldCount', { row: index + 1, fields: record.length, header: header.length })
  }
  return sampled(rows, skipped)
}

/**
 * Whether a .json or .jsonl file's start is JSON Lines, by the server's rule (datafiles/layout.py content_format):
 * a file that opens with '[' is a JSON array, one whose first line is a whole object JSON Lines, whatever its name.
 */
function holdsJsonLines(text: string, whole: boolean, suffix: string): boolean {
  const body = text.trimStart()
  if (body.startsWith('[')) return false
  if (suffix === '.jsonl' || !body.startsWith('{')) return suffix === '.jsonl'
  const newline = body.indexOf('\n')
  if (newline < 0 && !whole) return true // a first line longer than the sample: a record, not a pretty-printed file
  try {
    return isRow(JSON.parse(newline < 0 ? body : body.slice(0, newline)))
  } catch {
    return false
  }
}

/** The file's first rows, by its suffix, and for JSON by what it holds (the server's own rule for a file's format). */
export async function sampleRows(file: File): Promise<Sample> {
  const suffix = file.name.toLowerCase().match(/\.[^.]+$/)?.[0] ?? ''
  if (suffix === '.csv') {
    const { text, whole } = await start(file)
    return csvRows(text, whole)
  }
  if (suffix === '.json' || suffix === '.jsonl') {
    const { text, whole } = await start(file)
    if (holdsJsonLines(text, whole, suffix)) return jsonLinesRows(text, whole)
    if (file.size > WHOLE_JSON_BYTES) return { status: 'on-upload' }
    return jsonArrayRows(whole ? text : (await file.text()).replace(/^\uFEFF/, ''))
  }
  return { status: 'on-upload' }
}
