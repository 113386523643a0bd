"""Terminal views of a state, driven by each pack's `view:` section (Rich renderables)."""

from engine.render.panels import Renderer, log_line, result_text
from engine.render.spec import ViewSpec, compile_view

__all__ = ["Renderer", "ViewSpec", "compile_view", "log_line", "result_text"]
