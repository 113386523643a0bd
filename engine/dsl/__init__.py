"""The effect language: parse (Lark) → AST → resolve → compile to Python source."""
