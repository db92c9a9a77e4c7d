"""The report's sections, one module per thing reported: the diversity dimensions
(:mod:`.diversity`), the BLM evaluation (:mod:`.blm`) and the minimal-pair tables (:mod:`.pairs`).
Each builds :class:`poetic_eval.report.Section` records from results the core computed."""
