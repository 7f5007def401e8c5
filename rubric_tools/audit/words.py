"""A modest list of common English and contract words, used to find concepts that are
fragments of unrelated words (`ai` in "again", `train` in "constraint")."""

from __future__ import annotations

COMMON_WORDS: frozenset[str] = frozenset(
    """
    about above accept access account act action add addition additional address after again against agent
    agreement aid aim air all allow also although always amount and another answer any apply approach approval
    area around article as ask assign associate at attach attain audit available avoid award aware away back
    bargain basis be because become been before begin behalf being below benefit between beyond bill both
    brain breach bring broad business but buy by call can capacity capital captain care carry case cause
    certain chain chair change charge check claim clause clear client close commit common company complain
    complete concern condition confirm consider constraint constrain contain content context continue contract
    control cost could country course court cover create credit current customer damage date day deal debt
    decide decision default defend define delay deliver demand department describe description design detail
    determine develop did different direct disclose discuss dispute do document does domain done down draft
    due during each early effect either email employ end ensure enter entire equip equipment event every
    evidence example except expect explain express fail fair fee few field final find fine first follow for
    force form former forward free from full fund further gain general get give go good govern grant great
    group guarantee had hand has have he head hear help her here high him his hold home hour how however
    idea if impair important include increase indemnity information initial insurance interest into involve
    is issue it item its join just keep kind know labor language last later law lead least leave legal less
    letter level liability license like limit line list local long loss made main maintain make manage many
    market material matter may mean measure meet member method might mind model more most move much must
    name nature need never new next no not note notice now number obtain of off offer office officer often
    on once one only open operate option or order other our out over own paid pain paragraph part party pay
    payment people per perform period person place plain plan point policy position possible power practice
    prepare present price principal private problem process produce product program project promise property
    propose protect provide provision public purchase purpose put quality question raise rate rather reach
    read real reason receive record refer regard relate relationship remain remedy repair report represent
    request require reserve resolve respect response result retain return review right risk rule said sale
    same say schedule scope section security see seek sell send series serve service set shall share she
    ship should show side sign similar since small so some specific staff standard start state statement
    still strain subject such supply support sure system take team term terminate than that the their them
    then there these they thing this those through time title to total toward trade train transfer trip
    true trust under unit until upon us use user value vendor very view wait waiver want warrant was way we
    well were what when where whether which while who whole will with within without work would write year
    yet you your
    """.split()
)
