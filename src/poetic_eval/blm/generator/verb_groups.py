"""Italian verb groups of the BLM sentences: one tense/modal frame in one voice, agreeing.

Frames (:data:`FRAMES`) and what each voice makes of them, for *aprire* with a feminine
singular subject:

============  ==================  ==========================  =====================
frame         active              passive                     si (inchoative)
============  ==================  ==========================  =====================
present       apre                viene aperta                si apre
imperfect     apriva              veniva aperta               si apriva
future        aprirà              sarà aperta                 si aprirà
perfect       ha aperto           è stata aperta              si è aperta
remote        aprì                fu aperta                   si aprì
can           può aprire          può essere aperta           può aprirsi
can_past      poteva aprire       poteva essere aperta        poteva aprirsi
can_future    potrà aprire        potrà essere aperta         potrà aprirsi
can_remote    poté aprire         poté essere aperta          poté aprirsi
could         potrebbe aprire     potrebbe essere aperta      potrebbe aprirsi
must          deve aprire         deve essere aperta          deve aprirsi
must_past     doveva aprire       doveva essere aperta        doveva aprirsi
must_future   dovrà aprire        dovrà essere aperta         dovrà aprirsi
must_remote   dovette aprire      dovette essere aperta       dovette aprirsi
should        dovrebbe aprire     dovrebbe essere aperta      dovrebbe aprirsi
must_can      deve poter aprire   deve poter essere aperta    deve potersi aprire
must_have     deve aver aperto    deve essere stata aperta    deve essersi aperta
must_had      doveva aver aperto  doveva essere stata aperta  doveva essersi aperta
may_have      può aver aperto     può essere stata aperta     può essersi aperta
might_have    potrebbe aver       potrebbe essere stata       potrebbe essersi aperta
              aperto              aperta
============  ==================  ==========================  =====================

*could* and *should* are the conditionals of possibility and expectation (*la camicia
potrebbe strapparsi al primo lavaggio*, *il ghiaccio dovrebbe sciogliersi nel pomeriggio*); the
others say what one can or must do (*il cuoco dovette cuocere l'arrosto nel pomeriggio*),
except the four with a perfect infinitive (:data:`INFERENCE_FRAMES`), which infer what must,
may or might have happened (*il vaso deve essersi rotto durante il trasloco*, *la bambina
potrebbe aver rovesciato la bottiglia nel pomeriggio*): the modal way to tell a mishap.

The perfect takes the verb's own auxiliary in the active (*è arrivata*, *ha disegnato*); with
essere, and in the passive and si forms, participles agree with the subject in gender and
number. :func:`copula_group` is essere in a frame plus an agreeing adjective (*sono stanche*).
"""

from __future__ import annotations

from ...checks import require_choice
from .conjugation import finite_form, infinitive_with_si, participle, truncated_infinitive
from .lexicon import Adjective, Lexicon, Verb

FRAMES = (
    *("present", "imperfect", "future", "perfect", "remote"),
    *("can", "can_past", "can_future", "can_remote", "could"),
    *("must", "must_past", "must_future", "must_remote", "should", "must_can"),
    *("must_have", "must_had", "may_have", "might_have"),
)
#: frames a temporal "da" phrase (da un mese) goes with: the event is ongoing or habitual
DURATION_FRAMES = ("present", "imperfect")
VOICES = ("active", "passive", "si")
#: modal frame -> (the modal, whether *poter* follows it, the modal's tense)
_MODALS = {
    "can": ("potere", False, "present"),
    "can_past": ("potere", False, "imperfect"),
    "can_future": ("potere", False, "future"),
    "can_remote": ("potere", False, "remote"),
    "could": ("potere", False, "conditional"),
    "must": ("dovere", False, "present"),
    "must_past": ("dovere", False, "imperfect"),
    "must_future": ("dovere", False, "future"),
    "must_remote": ("dovere", False, "remote"),
    "should": ("dovere", False, "conditional"),
    "must_can": ("dovere", True, "present"),
    "must_have": ("dovere", False, "present"),
    "must_had": ("dovere", False, "imperfect"),
    "may_have": ("potere", False, "present"),
    "might_have": ("potere", False, "conditional"),
}
#: the modal frames with a perfect infinitive: an inference about what has happened (epistemic)
INFERENCE_FRAMES = ("must_have", "must_had", "may_have", "might_have")
#: the modal frames: epistemic (:data:`POSSIBILITY_FRAMES`), or of what someone can or must do
MODAL_FRAMES = tuple(_MODALS)
#: the frames of what may or should happen, whoever or whatever makes it happen
POSSIBILITY_FRAMES = ("could", "should")
#: the frames of an obligation or an expectation (dovere)
OBLIGATION_FRAMES = tuple(
    frame
    for frame, (lemma, _, _) in _MODALS.items()
    if lemma == "dovere" and frame not in INFERENCE_FRAMES
)
#: the frames of an ability, a permission or a chance (potere)
ABILITY_FRAMES = tuple(
    frame
    for frame, (lemma, _, _) in _MODALS.items()
    if lemma == "potere" and frame not in INFERENCE_FRAMES
)


def verb_group(
    lexicon: Lexicon, verb: Verb, frame: str, voice: str, number: str, gender: str
) -> str:
    """The verb group of ``verb`` for a third-person subject of ``number`` and ``gender``."""
    require_choice(frame, FRAMES, "frame")
    require_choice(voice, VOICES, "voice")
    essere = lexicon.verb("essere")
    agreeing = participle(verb, gender, number)
    if frame in _MODALS:
        lemma, with_poter, tense = _MODALS[frame]
        words = [finite_form(lexicon.verb(lemma), tense, number)]
        if frame in INFERENCE_FRAMES:
            return " ".join([*words, _perfect_infinitive(lexicon, verb, voice, number, gender)])
        potere = lexicon.verb("potere")
        if voice == "active":
            words += [truncated_infinitive(potere)] * with_poter + [verb.lemma]
        elif voice == "passive":
            words += [truncated_infinitive(potere)] * with_poter + ["essere", agreeing]
        elif with_poter:
            words += [infinitive_with_si(potere), verb.lemma]
        else:
            words += [infinitive_with_si(verb)]
        return " ".join(words)
    if voice == "passive":
        if frame == "perfect":
            stato = participle(essere, gender, number)
            return f"{finite_form(essere, 'present', number)} {stato} {agreeing}"
        # essere in the future and the passato remoto (sarà aperta, fu aperta), else venire
        auxiliary = essere if frame in ("future", "remote") else lexicon.verb("venire")
        return f"{finite_form(auxiliary, frame, number)} {agreeing}"
    clitic = "si " if voice == "si" else ""
    if frame != "perfect":
        return clitic + finite_form(verb, frame, number)
    auxiliary = essere if voice == "si" else lexicon.verb(verb.aux)
    if auxiliary.lemma == "avere":
        return f"{finite_form(auxiliary, 'present', number)} {participle(verb)}"
    return f"{clitic}{finite_form(essere, 'present', number)} {agreeing}"


def _perfect_infinitive(lexicon: Lexicon, verb: Verb, voice: str, number: str, gender: str) -> str:
    """*aver aperto*, *essere arrivata*, *essere stata aperta*, *essersi aperta*."""
    essere = lexicon.verb("essere")
    agreeing = participle(verb, gender, number)
    if voice == "passive":
        return f"essere {participle(essere, gender, number)} {agreeing}"
    if voice == "si":
        return f"{infinitive_with_si(essere)} {agreeing}"
    if verb.aux == "avere":
        return f"{truncated_infinitive(lexicon.verb('avere'))} {participle(verb)}"
    return f"essere {agreeing}"


def copula_group(
    lexicon: Lexicon, adjective: Adjective, frame: str, number: str, gender: str
) -> str:
    """essere in ``frame`` + ``adjective``, both agreeing: *è stata pulita*, *saranno stanchi*."""
    essere = verb_group(lexicon, lexicon.verb("essere"), frame, "active", number, gender)
    return f"{essere} {adjective.form(gender, number)}"
