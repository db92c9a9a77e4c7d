"""The answer labels of the BLM matrices and the rule each wrong answer breaks.

AgrI (after Jiang et al. 2024): the answers differ from the correct one only in the numbers of the
subject, attractors and verb, or in the form of the second attractor. The three agreement
errors are told apart by what the wrong verb agrees with: N1 (AEN1), N2 (AEN2) or no noun of
the sentence (AEV); that is why AEV and AEN1 also change attractor numbers.

CausI and OdI (the BLM-It labels): ``I`` = the subject bears the wrong semantic role (the
agent for CausI, the patient for OdI); ``R`` = wrong sequence reasoning: a sentence with two
arguments (transitive, or passive with its agent) where the sequence calls for one argument and
a non-argument "da" phrase; ``E`` = the "da" phrase holds an argument (the passive's agent in
-pass, a wrongly placed by-phrase in -WrBy) instead of a non-argument "da" phrase. The suffix
names the sentence's structure: Int (intransitive + a "da" phrase that holds no argument:
temporal, or *da solo*), trans (active transitive), pass (passive + "da" agent), WrBy
(intransitive + "da" + argument). The two-argument answers (trans, pass) may end with a
temporal phrase or *da solo* (:mod:`.alternation_templates`), so that no "da" phrase marks the
correct answer.
"""

from __future__ import annotations

AGREEMENT_LABELS = ("Correct", "Coord", "WNA", "WN1", "WN2", "AEV", "AEN1", "AEN2")
ALTERNATION_LABELS = (
    "Correct",
    "I-Int",
    "R-trans",
    "IR-trans",
    "ER-pass",
    "IER-pass",
    "E-WrBy",
    "IE-WrBy",
)

#: the rules relative to the correct answer's numbers (subject S, N1 A, N2 B), which take each
#: of their 8 patterns in an equal share of the items (the counter starts from any state)
AGREEMENT_RULES = {
    "Correct": "the 8th step of the counter: the subject S, N1 A and N2 B the sequence calls "
    "for (each of the 8 number patterns in about an eighth of the items), the verb agreeing "
    "with S",
    "Coord": "N2 is coordinated with 'e' instead of introduced by its preposition, so the "
    "subject is '[Subj P1] e N2'; the nouns' numbers as in the correct answer, the verb plural "
    "(a coordination is plural), masculine if either conjunct is",
    "WNA": "wrong number of attractors: N2 is missing; agreement correct",
    "WN1": "wrong grammatical number of N1 (not A); agreement correct",
    "WN2": "wrong grammatical number of N2 (not B); agreement correct",
    "AEV": "the verb takes the other number than S and agrees with no noun of the sentence "
    "(N1 and N2 in S's number)",
    "AEN1": "the verb agrees with N1 (put in the other number than S) instead of the subject; "
    "N2 in S's number, so only N1 matches the verb",
    "AEN2": "the verb agrees with N2 (put in the other number than S) instead of the subject; "
    "N1 in S's number, so only N2 matches the verb",
}

ALTERNATION_RULES = {
    "Correct": "CausI: patient + si-verb + a 'da' phrase that holds no argument (temporal, or "
    "'da solo'); OdI: agent + verb without object + the same",
    "I-Int": "I: the other role as subject of the same intransitive sentence (temporal 'da' "
    "phrase or 'da solo', at the correct answer's rates)",
    "R-trans": "R: active transitive sentence, the right role as subject, the other as bare "
    "object; it may end with a temporal phrase or 'da solo'",
    "IR-trans": "I+R: active transitive with the roles of the context's transitive sentences "
    "swapped relative to R-trans; it may end with a temporal phrase or 'da solo'",
    "ER-pass": "E+R: passive with a 'da' agent, the right role as subject; it may end with a "
    "temporal phrase or 'da solo'",
    "IER-pass": "I+E+R: passive with a 'da' agent, the other role as subject; it may end with a "
    "temporal phrase or 'da solo'",
    "E-WrBy": "E: intransitive sentence whose 'da' phrase holds the other argument instead "
    "of a temporal phrase or 'da solo'",
    "IE-WrBy": "I+E: intransitive with the other role as subject and the right role in the "
    "'da' phrase",
}
