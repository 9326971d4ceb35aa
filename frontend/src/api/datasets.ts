// The datasets API's shapes, named for the UI (training_platform/datasets/schemas.py, stats.py, preview.py, audit.py).
import type { components } from './schema'
import { membersOf } from './types'

type Schemas = components['schemas']

export type DatasetKind = Schemas['DatasetRegister']['kind']
/** A kind as the server defines it (GET /datasets/kinds): the fields `field_mapping` may point at other columns, and
 * the format presets that read it. */
export type DatasetKindInfo = Schemas['DatasetKindRead']

/** The API declares a registered dataset's kind as any string; it is one of the kinds a dataset is registered as. */
export type Dataset = Omit<Schemas['DatasetRead'], 'kind'> & { kind: DatasetKind }
export type DatasetUpdate = Schemas['DatasetUpdate']
export type DatasetTask = Schemas['TaskRead']
export type AuditTask = Schemas['AuditTaskRead']
export type Finding = Schemas['Finding']
/** Every audit setting has a default on the server; the panel sends the ones it offers. */
export type AuditOptions = Partial<Schemas['AuditOptions']>
export type DatasetRow = Schemas['RowOut']
export type RowsPage = Schemas['RowsPage']
export type LossPreview = Schemas['LossPreview']
export type DatasetStats = Schemas['DatasetStats']
export type SearchHit = Schemas['SearchHitOut']
export type DetectRequest = Schemas['DetectRequest']
export type DetectResult = Schemas['DetectResult']
/** The file types a dataset file may be (GET /datasets/file-types). */
export type FileTypes = Schemas['FileTypesRead']

/** The format a dataset's rows are registered in: detected, the platform's own fields, or a preset. */
export type PresetChoice = NonNullable<Schemas['DatasetRegister']['preset']>
/** Which assistant turns of a conversation carry the SFT loss (the job's `train_on`, the loss preview's). */
export type LossTurns = Schemas['LossPreview']['train_on']
export const LOSS_TURNS = membersOf<LossTurns>({ all_assistant: true, last_assistant: true })
