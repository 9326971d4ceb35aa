// What the API found wrong with a pipeline's YAML, each problem with the line it is on (when it has one) and the
// stage it concerns, in the order the editor lists them: by line, the pipeline-wide ones first.
import { ApiError } from '../../api/client'
import { messageOf } from '../../errors'

export interface PipelineProblem {
  /** The YAML line (1-based), null where the problem has none (a cycle spans stages on many lines). */
  line: number | null
  /** The stage concerned, null for the pipeline as a whole. */
  stage: string | null
  /** Where in the definition, as the API names it (`stages.1.depends_on`), when it says. */
  field: string | null
  message: string
}

/** One entry of a 422: the platform's error item ({field, message}) or FastAPI's ({loc, msg}), with `line` and `stage`. */
interface ProblemItem {
  field?: string
  message?: string
  loc?: (string | number)[]
  msg?: string
  line?: number | null
  stage?: string | null
}

function problemOf(item: ProblemItem): PipelineProblem {
  const field = item.field ?? (item.loc ? item.loc.join('.') : null)
  return {
    line: typeof item.line === 'number' ? item.line : null,
    stage: item.stage ?? null,
    field: field || null,
    message: item.message ?? item.msg ?? '',
  }
}

export function sortProblems(problems: PipelineProblem[]): PipelineProblem[] {
  return [...problems].sort((a, b) => (a.line ?? 0) - (b.line ?? 0))
}

/** The problems a failed validation or creation reported; any other failure (a 409, the network) as one problem. */
export function problemsOf(error: unknown): PipelineProblem[] {
  if (error instanceof ApiError && error.status === 422 && error.errors.length) {
    return sortProblems((error.errors as ProblemItem[]).map(problemOf))
  }
  return [{ line: null, stage: null, field: null, message: messageOf(error) }]
}

/** Each problem line with its messages, for the editor's gutter (YamlEditor's `marks`). */
export function marksOf(problems: PipelineProblem[]): Map<number, string> {
  const lines = new Map<number, string>()
  for (const problem of problems) {
    if (problem.line === null) continue
    const earlier = lines.get(problem.line)
    lines.set(problem.line, earlier ? `${earlier}\n${problem.message}` : problem.message)
  }
  return lines
}
