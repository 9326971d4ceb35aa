"""Data files → rows: the formats the platform reads (JSON, JSON Lines, Parquet, directories of them), tables with
each row's number in its file, field mappings, and the per-algorithm row rules. Shared by the datasets workspace,
the jobs service (validation at creation) and the engines (reading a job's data)."""
