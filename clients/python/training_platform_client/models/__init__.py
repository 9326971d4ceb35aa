"""Contains all the data models used in inputs/outputs"""

from .action_settings import ActionSettings
from .alert_target_create import AlertTargetCreate
from .alert_target_create_format import AlertTargetCreateFormat
from .alert_target_create_severities_item import AlertTargetCreateSeveritiesItem
from .alert_target_read import AlertTargetRead
from .alert_target_read_format import AlertTargetReadFormat
from .alert_target_read_severities_item import AlertTargetReadSeveritiesItem
from .alert_target_update import AlertTargetUpdate
from .alert_target_update_severities_type_0_item import AlertTargetUpdateSeveritiesType0Item
from .algorithm import Algorithm
from .algorithm_out import AlgorithmOut
from .algorithm_out_params_schema import AlgorithmOutParamsSchema
from .anomaly_out import AnomalyOut
from .api_target import ApiTarget
from .attempt_read import AttemptRead
from .audit_entry_read import AuditEntryRead
from .audit_options import AuditOptions
from .audit_task_read import AuditTaskRead
from .audit_task_read_kind import AuditTaskReadKind
from .audit_task_read_params import AuditTaskReadParams
from .audit_task_read_result_type_0 import AuditTaskReadResultType0
from .audit_task_read_status import AuditTaskReadStatus
from .average_request import AverageRequest
from .average_request_dtype_type_0 import AverageRequestDtypeType0
from .average_request_mode import AverageRequestMode
from .body_sync_datasets import BodySyncDatasets
from .category_comparison import CategoryComparison
from .category_comparison_values import CategoryComparisonValues
from .category_comparison_values_additional_property import CategoryComparisonValuesAdditionalProperty
from .chart_band import ChartBand
from .chart_read import ChartRead
from .chat_generation import ChatGeneration
from .chat_message import ChatMessage
from .chat_message_role import ChatMessageRole
from .chat_request import ChatRequest
from .checkpoint_read import CheckpointRead
from .column_stats import ColumnStats
from .column_stats_item_type_type_0 import ColumnStatsItemTypeType0
from .column_stats_type import ColumnStatsType
from .compare_request import CompareRequest
from .compare_request_direction_type_0 import CompareRequestDirectionType0
from .comparison_read import ComparisonRead
from .comparison_read_counts import ComparisonReadCounts
from .comparison_read_counts_additional_property import ComparisonReadCountsAdditionalProperty
from .completion_sample import CompletionSample
from .completion_sample_rewards import CompletionSampleRewards
from .completion_samples_page import CompletionSamplesPage
from .convert_request import ConvertRequest
from .convert_request_format import ConvertRequestFormat
from .credential_source import CredentialSource
from .curve_point import CurvePoint
from .curve_point_values import CurvePointValues
from .curve_read import CurveRead
from .data_format import DataFormat
from .data_format_field_mapping import DataFormatFieldMapping
from .data_format_preset_type_0 import DataFormatPresetType0
from .dataset_kind_read import DatasetKindRead
from .dataset_kind_read_kind import DatasetKindReadKind
from .dataset_read import DatasetRead
from .dataset_read_field_mapping import DatasetReadFieldMapping
from .dataset_read_tags_type_0 import DatasetReadTagsType0
from .dataset_register import DatasetRegister
from .dataset_register_field_mapping import DatasetRegisterFieldMapping
from .dataset_register_kind import DatasetRegisterKind
from .dataset_register_preset import DatasetRegisterPreset
from .dataset_stats import DatasetStats
from .dataset_sync import DatasetSync
from .dataset_sync_state import DatasetSyncState
from .dataset_update import DatasetUpdate
from .dataset_update_field_mapping_type_0 import DatasetUpdateFieldMappingType0
from .dataset_update_preset_type_0 import DatasetUpdatePresetType0
from .dedup_request import DedupRequest
from .dedup_request_method import DedupRequestMethod
from .delivery_read import DeliveryRead
from .delivery_read_status import DeliveryReadStatus
from .demo_summary import DemoSummary
from .demo_summary_datasets import DemoSummaryDatasets
from .detect_request import DetectRequest
from .detect_request_field_mapping import DetectRequestFieldMapping
from .detect_request_kind import DetectRequestKind
from .detect_request_rows_item import DetectRequestRowsItem
from .detect_result import DetectResult
from .diagnostics_settings import DiagnosticsSettings
from .difference import Difference
from .download_job_log_stream import DownloadJobLogStream
from .duration_read import DurationRead
from .engine_configuration_read import EngineConfigurationRead
from .engine_configuration_read_configuration_type_0 import EngineConfigurationReadConfigurationType0
from .engine_read import EngineRead
from .error_body import ErrorBody
from .error_item import ErrorItem
from .estimate import Estimate
from .estimate_body import EstimateBody
from .estimate_body_attention import EstimateBodyAttention
from .estimate_body_engine import EstimateBodyEngine
from .estimate_body_optimizer import EstimateBodyOptimizer
from .estimate_body_optimizer_implementation_type_0 import EstimateBodyOptimizerImplementationType0
from .estimate_body_precision import EstimateBodyPrecision
from .estimate_read import EstimateRead
from .estimate_read_explanations import EstimateReadExplanations
from .estimate_read_per_gpu_bytes import EstimateReadPerGpuBytes
from .estimate_read_per_gpu_gib import EstimateReadPerGpuGib
from .estimate_request import EstimateRequest
from .estimate_request_attention import EstimateRequestAttention
from .estimate_request_engine import EstimateRequestEngine
from .estimate_request_optimizer import EstimateRequestOptimizer
from .estimate_request_optimizer_implementation_type_0 import EstimateRequestOptimizerImplementationType0
from .estimate_request_precision import EstimateRequestPrecision
from .eval_request import EvalRequest
from .eval_results import EvalResults
from .eval_results_categories import EvalResultsCategories
from .eval_results_categories_additional_property import EvalResultsCategoriesAdditionalProperty
from .eval_results_category_sizes import EvalResultsCategorySizes
from .eval_results_overall import EvalResultsOverall
from .eval_run_read import EvalRunRead
from .export_metrics_format import ExportMetricsFormat
from .failure_text import FailureText
from .file_types_read import FileTypesRead
from .finding import Finding
from .finding_details import FindingDetails
from .finding_kind import FindingKind
from .finding_read import FindingRead
from .finding_read_evidence import FindingReadEvidence
from .finding_read_params import FindingReadParams
from .finding_read_severity import FindingReadSeverity
from .finding_read_text import FindingReadText
from .finding_text import FindingText
from .finding_text_type_0 import FindingTextType0
from .generation_settings import GenerationSettings
from .get_findings_severity_type_0_item import GetFindingsSeverityType0Item
from .gpu_read import GpuRead
from .grad_explosion_settings import GradExplosionSettings
from .grad_vanishing_settings import GradVanishingSettings
from .health import Health
from .health_read import HealthRead
from .health_read_health import HealthReadHealth
from .health_settings import HealthSettings
from .histogram import Histogram
from .host_create import HostCreate
from .host_create_environment import HostCreateEnvironment
from .host_read import HostRead
from .host_read_auth import HostReadAuth
from .host_read_environment import HostReadEnvironment
from .host_report import HostReport
from .host_test import HostTest
from .import_out import ImportOut
from .imported_entry import ImportedEntry
from .imported_entry_outcome import ImportedEntryOutcome
from .index_state import IndexState
from .initial_loss_settings import InitialLossSettings
from .job_create import JobCreate
from .job_create_engine_settings import JobCreateEngineSettings
from .job_create_params import JobCreateParams
from .job_event_read import JobEventRead
from .job_failure import JobFailure
from .job_failure_cause_stream_type_0 import JobFailureCauseStreamType0
from .job_failure_kind import JobFailureKind
from .job_failure_text import JobFailureText
from .job_file import JobFile
from .job_file_create import JobFileCreate
from .job_logs_stream import JobLogsStream
from .job_preview import JobPreview
from .job_preview_configuration import JobPreviewConfiguration
from .job_preview_engine_settings import JobPreviewEngineSettings
from .job_read import JobRead
from .job_read_algorithm_type_2 import JobReadAlgorithmType2
from .job_read_dataset_formats import JobReadDatasetFormats
from .job_read_engine_settings import JobReadEngineSettings
from .job_read_health import JobReadHealth
from .job_read_params import JobReadParams
from .job_status import JobStatus
from .job_task_read import JobTaskRead
from .job_task_read_params import JobTaskReadParams
from .job_task_read_result_type_0 import JobTaskReadResultType0
from .job_task_read_status import JobTaskReadStatus
from .key_out import KeyOut
from .kl_explosion_settings import KlExplosionSettings
from .label_stats import LabelStats
from .label_value import LabelValue
from .length_histogram import LengthHistogram
from .length_stats import LengthStats
from .list_datasets_kind_type_0 import ListDatasetsKindType0
from .list_deliveries_status_item import ListDeliveriesStatusItem
from .llama_factory_import import LlamaFactoryImport
from .llama_factory_import_result import LlamaFactoryImportResult
from .log_lines_settings import LogLinesSettings
from .log_tail import LogTail
from .log_tail_stream import LogTailStream
from .login_request import LoginRequest
from .login_result import LoginResult
from .lora_fold_request import LoraFoldRequest
from .lora_fold_request_dtype_type_0 import LoraFoldRequestDtypeType0
from .loss_plateau_settings import LossPlateauSettings
from .loss_preview import LossPreview
from .loss_preview_train_on import LossPreviewTrainOn
from .loss_range import LossRange
from .malformed_out import MalformedOut
from .me import Me
from .merge_method_read import MergeMethodRead
from .merge_method_read_base import MergeMethodReadBase
from .merge_method_read_parameters import MergeMethodReadParameters
from .merge_method_read_per_model import MergeMethodReadPerModel
from .merge_model_request import MergeModelRequest
from .merge_model_request_parameters import MergeModelRequestParameters
from .merge_request import MergeRequest
from .merge_request_dtype_type_0 import MergeRequestDtypeType0
from .merge_request_method_type_0 import MergeRequestMethodType0
from .merge_request_parameters import MergeRequestParameters
from .metric_comparison import MetricComparison
from .metric_comparison_differences import MetricComparisonDifferences
from .metric_comparison_values import MetricComparisonValues
from .metric_read import MetricRead
from .metric_request import MetricRequest
from .metric_request_name import MetricRequestName
from .metric_request_tokenize import MetricRequestTokenize
from .metrics_out import MetricsOut
from .mlflow_export import MlflowExport
from .model_choice import ModelChoice
from .model_choice_kind import ModelChoiceKind
from .model_choice_metrics import ModelChoiceMetrics
from .model_preset_read import ModelPresetRead
from .model_read import ModelRead
from .model_read_lineage_type_0 import ModelReadLineageType0
from .model_register import ModelRegister
from .model_target_request import ModelTargetRequest
from .non_finite_settings import NonFiniteSettings
from .overfitting_settings import OverfittingSettings
from .pipeline_check import PipelineCheck
from .pipeline_create import PipelineCreate
from .pipeline_definition import PipelineDefinition
from .pipeline_read import PipelineRead
from .pipeline_read_executor import PipelineReadExecutor
from .pipeline_read_stage_counts import PipelineReadStageCounts
from .pipeline_source import PipelineSource
from .pipeline_status import PipelineStatus
from .pipeline_summary import PipelineSummary
from .pipeline_summary_stage_counts import PipelineSummaryStageCounts
from .preset_tried import PresetTried
from .progress import Progress
from .recommend_body import RecommendBody
from .recommend_body_attention_type_0 import RecommendBodyAttentionType0
from .recommend_body_precision import RecommendBodyPrecision
from .recommendation_read import RecommendationRead
from .recommendation_read_engine_settings_type_0 import RecommendationReadEngineSettingsType0
from .recommendation_read_params_type_0 import RecommendationReadParamsType0
from .recommendation_read_trl_arguments_type_0 import RecommendationReadTrlArgumentsType0
from .remote_gpu import RemoteGpu
from .resume_request import ResumeRequest
from .reward_collapse_settings import RewardCollapseSettings
from .reward_preview_completion import RewardPreviewCompletion
from .reward_preview_completion_kind import RewardPreviewCompletionKind
from .reward_preview_read import RewardPreviewRead
from .reward_preview_request import RewardPreviewRequest
from .reward_preview_request_algorithm import RewardPreviewRequestAlgorithm
from .reward_preview_row import RewardPreviewRow
from .reward_spec import RewardSpec
from .reward_spec_comparison import RewardSpecComparison
from .reward_spec_extraction import RewardSpecExtraction
from .reward_spec_type import RewardSpecType
from .role import Role
from .row_out import RowOut
from .row_out_data_type_0 import RowOutDataType0
from .row_preview_train_on import RowPreviewTrainOn
from .rows_page import RowsPage
from .sample_comparison import SampleComparison
from .sample_comparison_directions import SampleComparisonDirections
from .sample_comparison_directions_additional_property import SampleComparisonDirectionsAdditionalProperty
from .sample_comparison_outputs import SampleComparisonOutputs
from .sample_comparison_prompt_type_1_item import SampleComparisonPromptType1Item
from .sample_comparison_values import SampleComparisonValues
from .sample_comparison_values_additional_property import SampleComparisonValuesAdditionalProperty
from .sample_lengths import SampleLengths
from .sample_record import SampleRecord
from .sample_record_details import SampleRecordDetails
from .sample_record_prompt_type_1_item import SampleRecordPromptType1Item
from .sample_record_values import SampleRecordValues
from .samples_page import SamplesPage
from .search_hit_out import SearchHitOut
from .search_request import SearchRequest
from .secret_read import SecretRead
from .secret_write import SecretWrite
from .select_request import SelectRequest
from .select_request_mode_type_0 import SelectRequestModeType0
from .select_request_rule import SelectRequestRule
from .selected_checkpoint import SelectedCheckpoint
from .selection_read import SelectionRead
from .selection_read_mode_type_0 import SelectionReadModeType0
from .selection_read_rule import SelectionReadRule
from .sequence import Sequence
from .series_out import SeriesOut
from .session_user import SessionUser
from .share_gpt_tags import ShareGptTags
from .signal_read import SignalRead
from .signal_read_evidence import SignalReadEvidence
from .signal_read_params import SignalReadParams
from .signal_read_severity import SignalReadSeverity
from .signal_read_text import SignalReadText
from .slow_step_settings import SlowStepSettings
from .span import Span
from .speed_read import SpeedRead
from .stage_claim import StageClaim
from .stage_read import StageRead
from .stage_read_outputs_type_0 import StageReadOutputsType0
from .stage_read_params import StageReadParams
from .stage_spec import StageSpec
from .stage_spec_params import StageSpecParams
from .stage_status import StageStatus
from .stage_task import StageTask
from .stage_type import StageType
from .stage_type_read import StageTypeRead
from .stage_type_read_params_schema import StageTypeReadParamsSchema
from .step_diagnosis import StepDiagnosis
from .surgery_operation import SurgeryOperation
from .sweep_request import SweepRequest
from .sync_out import SyncOut
from .system_info import SystemInfo
from .system_info_packages import SystemInfoPackages
from .system_info_paths import SystemInfoPaths
from .task_read import TaskRead
from .task_read_kind import TaskReadKind
from .task_read_params import TaskReadParams
from .task_read_result_type_0 import TaskReadResultType0
from .task_read_status import TaskReadStatus
from .template_read import TemplateRead
from .tensor_board_export import TensorBoardExport
from .term_read import TermRead
from .throughput_drop_settings import ThroughputDropSettings
from .token import Token
from .token_create import TokenCreate
from .token_created import TokenCreated
from .token_kind import TokenKind
from .token_read import TokenRead
from .tracker_export_read import TrackerExportRead
from .tracker_export_read_status import TrackerExportReadStatus
from .unavailable_here import UnavailableHere
from .upload_dataset_kind import UploadDatasetKind
from .upload_dataset_preset import UploadDatasetPreset
from .user_create import UserCreate
from .user_read import UserRead
from .user_update import UserUpdate
from .verl_command import VerlCommand
from .verl_problem import VerlProblem
from .verl_validation import VerlValidation
from .wandb_export import WandbExport
from .wandb_export_mode import WandbExportMode
from .work_read import WorkRead
from .work_read_kind import WorkReadKind

__all__ = (
    "ActionSettings",
    "AlertTargetCreate",
    "AlertTargetCreateFormat",
    "AlertTargetCreateSeveritiesItem",
    "AlertTargetRead",
    "AlertTargetReadFormat",
    "AlertTargetReadSeveritiesItem",
    "AlertTargetUpdate",
    "AlertTargetUpdateSeveritiesType0Item",
    "Algorithm",
    "AlgorithmOut",
    "AlgorithmOutParamsSchema",
    "AnomalyOut",
    "ApiTarget",
    "AttemptRead",
    "AuditEntryRead",
    "AuditOptions",
    "AuditTaskRead",
    "AuditTaskReadKind",
    "AuditTaskReadParams",
    "AuditTaskReadResultType0",
    "AuditTaskReadStatus",
    "AverageRequest",
    "AverageRequestDtypeType0",
    "AverageRequestMode",
    "BodySyncDatasets",
    "CategoryComparison",
    "CategoryComparisonValues",
    "CategoryComparisonValuesAdditionalProperty",
    "ChartBand",
    "ChartRead",
    "ChatGeneration",
    "ChatMessage",
    "ChatMessageRole",
    "ChatRequest",
    "CheckpointRead",
    "ColumnStats",
    "ColumnStatsItemTypeType0",
    "ColumnStatsType",
    "CompareRequest",
    "CompareRequestDirectionType0",
    "ComparisonRead",
    "ComparisonReadCounts",
    "ComparisonReadCountsAdditionalProperty",
    "CompletionSample",
    "CompletionSampleRewards",
    "CompletionSamplesPage",
    "ConvertRequest",
    "ConvertRequestFormat",
    "CredentialSource",
    "CurvePoint",
    "CurvePointValues",
    "CurveRead",
    "DataFormat",
    "DataFormatFieldMapping",
    "DataFormatPresetType0",
    "DatasetKindRead",
    "DatasetKindReadKind",
    "DatasetRead",
    "DatasetReadFieldMapping",
    "DatasetReadTagsType0",
    "DatasetRegister",
    "DatasetRegisterFieldMapping",
    "DatasetRegisterKind",
    "DatasetRegisterPreset",
    "DatasetStats",
    "DatasetSync",
    "DatasetSyncState",
    "DatasetUpdate",
    "DatasetUpdateFieldMappingType0",
    "DatasetUpdatePresetType0",
    "DedupRequest",
    "DedupRequestMethod",
    "DeliveryRead",
    "DeliveryReadStatus",
    "DemoSummary",
    "DemoSummaryDatasets",
    "DetectRequest",
    "DetectRequestFieldMapping",
    "DetectRequestKind",
    "DetectRequestRowsItem",
    "DetectResult",
    "DiagnosticsSettings",
    "Difference",
    "DownloadJobLogStream",
    "DurationRead",
    "EngineConfigurationRead",
    "EngineConfigurationReadConfigurationType0",
    "EngineRead",
    "ErrorBody",
    "ErrorItem",
    "Estimate",
    "EstimateBody",
    "EstimateBodyAttention",
    "EstimateBodyEngine",
    "EstimateBodyOptimizer",
    "EstimateBodyOptimizerImplementationType0",
    "EstimateBodyPrecision",
    "EstimateRead",
    "EstimateReadExplanations",
    "EstimateReadPerGpuBytes",
    "EstimateReadPerGpuGib",
    "EstimateRequest",
    "EstimateRequestAttention",
    "EstimateRequestEngine",
    "EstimateRequestOptimizer",
    "EstimateRequestOptimizerImplementationType0",
    "EstimateRequestPrecision",
    "EvalRequest",
    "EvalResults",
    "EvalResultsCategories",
    "EvalResultsCategoriesAdditionalProperty",
    "EvalResultsCategorySizes",
    "EvalResultsOverall",
    "EvalRunRead",
    "ExportMetricsFormat",
    "FailureText",
    "FileTypesRead",
    "Finding",
    "FindingDetails",
    "FindingKind",
    "FindingRead",
    "FindingReadEvidence",
    "FindingReadParams",
    "FindingReadSeverity",
    "FindingReadText",
    "FindingText",
    "FindingTextType0",
    "GenerationSettings",
    "GetFindingsSeverityType0Item",
    "GpuRead",
    "GradExplosionSettings",
    "GradVanishingSettings",
    "Health",
    "HealthRead",
    "HealthReadHealth",
    "HealthSettings",
    "Histogram",
    "HostCreate",
    "HostCreateEnvironment",
    "HostRead",
    "HostReadAuth",
    "HostReadEnvironment",
    "HostReport",
    "HostTest",
    "ImportedEntry",
    "ImportedEntryOutcome",
    "ImportOut",
    "IndexState",
    "InitialLossSettings",
    "JobCreate",
    "JobCreateEngineSettings",
    "JobCreateParams",
    "JobEventRead",
    "JobFailure",
    "JobFailureCauseStreamType0",
    "JobFailureKind",
    "JobFailureText",
    "JobFile",
    "JobFileCreate",
    "JobLogsStream",
    "JobPreview",
    "JobPreviewConfiguration",
    "JobPreviewEngineSettings",
    "JobRead",
    "JobReadAlgorithmType2",
    "JobReadDatasetFormats",
    "JobReadEngineSettings",
    "JobReadHealth",
    "JobReadParams",
    "JobStatus",
    "JobTaskRead",
    "JobTaskReadParams",
    "JobTaskReadResultType0",
    "JobTaskReadStatus",
    "KeyOut",
    "KlExplosionSettings",
    "LabelStats",
    "LabelValue",
    "LengthHistogram",
    "LengthStats",
    "ListDatasetsKindType0",
    "ListDeliveriesStatusItem",
    "LlamaFactoryImport",
    "LlamaFactoryImportResult",
    "LoginRequest",
    "LoginResult",
    "LogLinesSettings",
    "LogTail",
    "LogTailStream",
    "LoraFoldRequest",
    "LoraFoldRequestDtypeType0",
    "LossPlateauSettings",
    "LossPreview",
    "LossPreviewTrainOn",
    "LossRange",
    "MalformedOut",
    "Me",
    "MergeMethodRead",
    "MergeMethodReadBase",
    "MergeMethodReadParameters",
    "MergeMethodReadPerModel",
    "MergeModelRequest",
    "MergeModelRequestParameters",
    "MergeRequest",
    "MergeRequestDtypeType0",
    "MergeRequestMethodType0",
    "MergeRequestParameters",
    "MetricComparison",
    "MetricComparisonDifferences",
    "MetricComparisonValues",
    "MetricRead",
    "MetricRequest",
    "MetricRequestName",
    "MetricRequestTokenize",
    "MetricsOut",
    "MlflowExport",
    "ModelChoice",
    "ModelChoiceKind",
    "ModelChoiceMetrics",
    "ModelPresetRead",
    "ModelRead",
    "ModelReadLineageType0",
    "ModelRegister",
    "ModelTargetRequest",
    "NonFiniteSettings",
    "OverfittingSettings",
    "PipelineCheck",
    "PipelineCreate",
    "PipelineDefinition",
    "PipelineRead",
    "PipelineReadExecutor",
    "PipelineReadStageCounts",
    "PipelineSource",
    "PipelineStatus",
    "PipelineSummary",
    "PipelineSummaryStageCounts",
    "PresetTried",
    "Progress",
    "RecommendationRead",
    "RecommendationReadEngineSettingsType0",
    "RecommendationReadParamsType0",
    "RecommendationReadTrlArgumentsType0",
    "RecommendBody",
    "RecommendBodyAttentionType0",
    "RecommendBodyPrecision",
    "RemoteGpu",
    "ResumeRequest",
    "RewardCollapseSettings",
    "RewardPreviewCompletion",
    "RewardPreviewCompletionKind",
    "RewardPreviewRead",
    "RewardPreviewRequest",
    "RewardPreviewRequestAlgorithm",
    "RewardPreviewRow",
    "RewardSpec",
    "RewardSpecComparison",
    "RewardSpecExtraction",
    "RewardSpecType",
    "Role",
    "RowOut",
    "RowOutDataType0",
    "RowPreviewTrainOn",
    "RowsPage",
    "SampleComparison",
    "SampleComparisonDirections",
    "SampleComparisonDirectionsAdditionalProperty",
    "SampleComparisonOutputs",
    "SampleComparisonPromptType1Item",
    "SampleComparisonValues",
    "SampleComparisonValuesAdditionalProperty",
    "SampleLengths",
    "SampleRecord",
    "SampleRecordDetails",
    "SampleRecordPromptType1Item",
    "SampleRecordValues",
    "SamplesPage",
    "SearchHitOut",
    "SearchRequest",
    "SecretRead",
    "SecretWrite",
    "SelectedCheckpoint",
    "SelectionRead",
    "SelectionReadModeType0",
    "SelectionReadRule",
    "SelectRequest",
    "SelectRequestModeType0",
    "SelectRequestRule",
    "Sequence",
    "SeriesOut",
    "SessionUser",
    "ShareGptTags",
    "SignalRead",
    "SignalReadEvidence",
    "SignalReadParams",
    "SignalReadSeverity",
    "SignalReadText",
    "SlowStepSettings",
    "Span",
    "SpeedRead",
    "StageClaim",
    "StageRead",
    "StageReadOutputsType0",
    "StageReadParams",
    "StageSpec",
    "StageSpecParams",
    "StageStatus",
    "StageTask",
    "StageType",
    "StageTypeRead",
    "StageTypeReadParamsSchema",
    "StepDiagnosis",
    "SurgeryOperation",
    "SweepRequest",
    "SyncOut",
    "SystemInfo",
    "SystemInfoPackages",
    "SystemInfoPaths",
    "TaskRead",
    "TaskReadKind",
    "TaskReadParams",
    "TaskReadResultType0",
    "TaskReadStatus",
    "TemplateRead",
    "TensorBoardExport",
    "TermRead",
    "ThroughputDropSettings",
    "Token",
    "TokenCreate",
    "TokenCreated",
    "TokenKind",
    "TokenRead",
    "TrackerExportRead",
    "TrackerExportReadStatus",
    "UnavailableHere",
    "UploadDatasetKind",
    "UploadDatasetPreset",
    "UserCreate",
    "UserRead",
    "UserUpdate",
    "VerlCommand",
    "VerlProblem",
    "VerlValidation",
    "WandbExport",
    "WandbExportMode",
    "WorkRead",
    "WorkReadKind",
)
