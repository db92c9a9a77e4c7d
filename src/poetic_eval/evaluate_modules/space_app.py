"""The Gradio page of a metric Space (written for Gradio 6; the Space's ``sdk_version``).

The Space's ``app.py`` loads the module file beside it with ``evaluate.load`` and calls
:func:`metric_app` with it and the Space's ``form.json`` (:mod:`.space_forms`): one text box per
field, filled with the card's example, a Compute button (the API endpoint ``/compute``), and the
result as JSON. An error (a wrong input, a bad option) is shown as its one-line message
(``gr.Error``; a ``gradio_client`` caller gets it as ``AppError``). Gradio is imported only
here, when a Space runs; the package does not depend on it (the ``spaces`` extra).
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from .space_forms import fields_of, one_line, parse_form, plain_json

#: The endpoint the Compute button serves (``Client(url).predict(..., api_name="/compute")``).
API_NAME = "compute"


def read_form(path: str | Path) -> dict[str, Any]:
    """A Space's ``form.json``."""
    return json.loads(Path(path).read_text(encoding="utf-8"))


def compute_from_texts(module, spec: dict[str, Any], texts: list[str]) -> dict[str, Any]:
    """The metric's result, as JSON data, for the texts of the form's fields."""
    arguments = parse_form(fields_of(spec), texts)
    return plain_json(module.compute(**arguments))


def metric_app(module, spec: dict[str, Any], description: str = ""):
    """The ``gr.Blocks`` page of one metric: the form, the button, the JSON result."""
    import gradio as gr

    fields = fields_of(spec)
    title = f"{spec['metric']} (poetic-eval)"

    def compute(*texts: str) -> dict[str, Any]:
        try:
            return compute_from_texts(module, spec, list(texts))
        except Exception as error:  # noqa: BLE001 (every failure is shown as one line)
            # gr.Error renders HTML: the message is shown as text
            message = html.escape(one_line(error), quote=False)
            raise gr.Error(message, print_exception=False) from None

    with gr.Blocks(title=title) as page:
        gr.Markdown(f"# {title}\n\n{description}".rstrip())
        boxes = [
            gr.Textbox(
                label=field.label,
                value=field.example,
                lines=min(12, max(2, field.example.count("\n") + 1)),
                max_lines=40,
                elem_id=f"field-{field.name}",
            )
            for field in fields
        ]
        button = gr.Button("Compute", variant="primary", elem_id="compute")
        result = gr.JSON(label="result", elem_id="result")
        gr.Examples(
            examples=[[field.example for field in fields]],
            inputs=boxes,
            label="The card's example",
        )
        button.click(compute, inputs=boxes, outputs=result, api_name=API_NAME)
    return page
