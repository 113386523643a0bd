"""`horde lsp`: a language server for packs, modes, house rules and scenario files.

A thin layer over what `horde validate` and `horde doc` already know: its diagnostics are
validate's problems and warnings for the file in its pack context (engine.lsp.analysis);
hover, completion, definitions and the outline read the names of the loaded pack
(engine.lsp.names) and the text being edited (engine.lsp.text). pygls speaks the protocol
(engine.lsp.server); it is an optional extra (`pip install 'horde[lsp]'`).
"""
