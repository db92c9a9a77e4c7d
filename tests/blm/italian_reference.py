"""An independent reference for the BLM tests: Italian forms written out by hand, and a parser
that re-derives gender, number and determiner of a generated noun phrase.

Nothing here imports the generator's morphology (poetic_eval.blm.generator.articles, .conjugation,
.verb_groups): the tables are typed in, and the article rules are restated as regular
expressions, so a mistake in the generator cannot be mirrored here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Third-person forms of every verb of the bundled lexicon, in two tables (line length):
# present sg/pl | imperfect sg/pl, then future sg/pl | past participle (masculine singular).
PRESENT_IMPERFECT = """
ballare     balla ballano | ballava ballavano
arare       ara arano | arava aravano
mietere     miete mietono | mieteva mietevano
tosare      tosa tosano | tosava tosavano
infornare   inforna infornano | infornava infornavano
annaffiare  annaffia annaffiano | annaffiava annaffiavano
spazzare    spazza spazzano | spazzava spazzavano
verniciare  vernicia verniciano | verniciava verniciavano
riparare    ripara riparano | riparava riparavano
essere      è sono | era erano
avere       ha hanno | aveva avevano
venire      viene vengono | veniva venivano
potere      può possono | poteva potevano
dovere      deve devono | doveva dovevano
arrivare    arriva arrivano | arrivava arrivavano
partire     parte partono | partiva partivano
tornare     torna tornano | tornava tornavano
uscire      esce escono | usciva uscivano
lavorare    lavora lavorano | lavorava lavoravano
parlare     parla parlano | parlava parlavano
sorridere   sorride sorridono | sorrideva sorridevano
telefonare  telefona telefonano | telefonava telefonavano
dormire     dorme dormono | dormiva dormivano
protestare  protesta protestano | protestava protestavano
ridere      ride ridono | rideva ridevano
correre     corre corrono | correva correvano
scappare    scappa scappano | scappava scappavano
giocare     gioca giocano | giocava giocavano
saltare     salta saltano | saltava saltavano
cadere      cade cadono | cadeva cadevano
sparire     sparisce spariscono | spariva sparivano
funzionare  funziona funzionano | funzionava funzionavano
crescere    cresce crescono | cresceva crescevano
aprire      apre aprono | apriva aprivano
chiudere    chiude chiudono | chiudeva chiudevano
rompere     rompe rompono | rompeva rompevano
spezzare    spezza spezzano | spezzava spezzavano
bruciare    brucia bruciano | bruciava bruciavano
sciogliere  scioglie sciolgono | scioglieva scioglievano
asciugare   asciuga asciugano | asciugava asciugavano
bagnare     bagna bagnano | bagnava bagnavano
piegare     piega piegano | piegava piegavano
gonfiare    gonfia gonfiano | gonfiava gonfiavano
svuotare    svuota svuotano | svuotava svuotavano
riempire    riempie riempiono | riempiva riempivano
cuocere     cuoce cuociono | cuoceva cuocevano
scongelare  scongela scongelano | scongelava scongelavano
raffreddare raffredda raffreddano | raffreddava raffreddavano
riscaldare  riscalda riscaldano | riscaldava riscaldavano
accendere   accende accendono | accendeva accendevano
spegnere    spegne spengono | spegneva spegnevano
muovere     muove muovono | muoveva muovevano
fermare     ferma fermano | fermava fermavano
rovesciare  rovescia rovesciano | rovesciava rovesciavano
strappare   strappa strappano | strappava strappavano
allargare   allarga allargano | allargava allargavano
restringere restringe restringono | restringeva restringevano
svegliare   sveglia svegliano | svegliava svegliavano
alzare      alza alzano | alzava alzavano
abbassare   abbassa abbassano | abbassava abbassavano
spostare    sposta spostano | spostava spostavano
staccare    stacca staccano | staccava staccavano
frantumare  frantuma frantumano | frantumava frantumavano
incrinare   incrina incrinano | incrinava incrinavano
mangiare    mangia mangiano | mangiava mangiavano
bere        beve bevono | beveva bevevano
disegnare   disegna disegnano | disegnava disegnavano
dipingere   dipinge dipingono | dipingeva dipingevano
scrivere    scrive scrivono | scriveva scrivevano
leggere     legge leggono | leggeva leggevano
cantare     canta cantano | cantava cantavano
cucinare    cucina cucinano | cucinava cucinavano
studiare    studia studiano | studiava studiavano
pulire      pulisce puliscono | puliva pulivano
stirare     stira stirano | stirava stiravano
cucire      cuce cuciono | cuciva cucivano
sbucciare   sbuccia sbucciano | sbucciava sbucciavano
guidare     guida guidano | guidava guidavano
fumare      fuma fumano | fumava fumavano
lavare      lava lavano | lavava lavavano
ricamare    ricama ricamano | ricamava ricamavano
multare     multa multano | multava multavano
interrogare interroga interrogano | interrogava interrogavano
recitare    recita recitano | recitava recitavano
insegnare   insegna insegnano | insegnava insegnavano
cacciare    caccia cacciano | cacciava cacciavano
pescare     pesca pescano | pescava pescavano
seminare    semina seminano | seminava seminavano
tradurre    traduce traducono | traduceva traducevano
comporre    compone compongono | componeva componevano
correggere  corregge correggono | correggeva correggevano
copiare     copia copiano | copiava copiavano
impastare   impasta impastano | impastava impastavano
potare      pota potano | potava potavano
scolpire    scolpisce scolpiscono | scolpiva scolpivano
fotografare fotografa fotografano | fotografava fotografavano
tessere     tesse tessono | tesseva tessevano
spolverare  spolvera spolverano | spolverava spolveravano
aspettare   aspetta aspettano | aspettava aspettavano
sgonfiare   sgonfia sgonfiano | sgonfiava sgonfiavano
sgualcire   sgualcisce sgualciscono | sgualciva sgualcivano
accartocciare accartoccia accartocciano | accartocciava accartocciavano
spiegazzare spiegazza spiegazzano | spiegazzava spiegazzavano
stropicciare stropiccia stropicciano | stropicciava stropicciavano
allentare   allenta allentano | allentava allentavano
spaccare    spacca spaccano | spaccava spaccavano
scheggiare  scheggia scheggiano | scheggiava scheggiavano
rigare      riga rigano | rigava rigavano
ammaccare   ammacca ammaccano | ammaccava ammaccavano
appannare   appanna appannano | appannava appannavano
sfilacciare sfilaccia sfilacciano | sfilacciava sfilacciavano
sporcare    sporca sporcano | sporcava sporcavano
ammorbidire ammorbidisce ammorbidiscono | ammorbidiva ammorbidivano
indurire    indurisce induriscono | induriva indurivano
scolorire   scolorisce scoloriscono | scoloriva scolorivano
deformare   deforma deformano | deformava deformavano
logorare    logora logorano | logorava logoravano
intiepidire intiepidisce intiepidiscono | intiepidiva intiepidivano
allagare    allaga allagano | allagava allagavano
scrostare   scrosta scrostano | scrostava scrostavano
aggrovigliare aggroviglia aggrovigliano | aggrovigliava aggrovigliavano
scucire     scuce scuciono | scuciva scucivano
srotolare   srotola srotolano | srotolava srotolavano
annodare    annoda annodano | annodava annodavano
smagliare   smaglia smagliano | smagliava smagliavano
spuntare    spunta spuntano | spuntava spuntavano
infeltrire  infeltrisce infeltriscono | infeltriva infeltrivano
slabbrare   slabbra slabbrano | slabbrava slabbravano
bucare      buca bucano | bucava bucavano
svitare     svita svitano | svitava svitavano
disfare     disfa disfano | disfaceva disfacevano
sbriciolare sbriciola sbriciolano | sbriciolava sbriciolavano
addensare   addensa addensano | addensava addensavano
cercare     cerca cercano | cercava cercavano
vedere      vede vedono | vedeva vedevano
ricordare   ricorda ricordano | ricordava ricordavano
preferire   preferisce preferiscono | preferiva preferivano
mungere     munge mungono | mungeva mungevano
raccogliere raccoglie raccolgono | raccoglieva raccoglievano
accordare   accorda accordano | accordava accordavano
addestrare  addestra addestrano | addestrava addestravano
restaurare  restaura restaurano | restaurava restauravano
lucidare    lucida lucidano | lucidava lucidavano
rilegare    rilega rilegano | rilegava rilegavano
"""

FUTURE_PARTICIPLE = """
ballare     ballerà balleranno | ballato
arare       arerà areranno | arato
mietere     mieterà mieteranno | mietuto
tosare      toserà toseranno | tosato
infornare   infornerà inforneranno | infornato
annaffiare  annaffierà annaffieranno | annaffiato
spazzare    spazzerà spazzeranno | spazzato
verniciare  vernicerà verniceranno | verniciato
riparare    riparerà ripareranno | riparato
essere      sarà saranno | stato
avere       avrà avranno | avuto
venire      verrà verranno | venuto
potere      potrà potranno | potuto
dovere      dovrà dovranno | dovuto
arrivare    arriverà arriveranno | arrivato
partire     partirà partiranno | partito
tornare     tornerà torneranno | tornato
uscire      uscirà usciranno | uscito
lavorare    lavorerà lavoreranno | lavorato
parlare     parlerà parleranno | parlato
sorridere   sorriderà sorrideranno | sorriso
telefonare  telefonerà telefoneranno | telefonato
dormire     dormirà dormiranno | dormito
protestare  protesterà protesteranno | protestato
ridere      riderà rideranno | riso
correre     correrà correranno | corso
scappare    scapperà scapperanno | scappato
giocare     giocherà giocheranno | giocato
saltare     salterà salteranno | saltato
cadere      cadrà cadranno | caduto
sparire     sparirà spariranno | sparito
funzionare  funzionerà funzioneranno | funzionato
aspettare   aspetterà aspetteranno | aspettato
sgonfiare   sgonfierà sgonfieranno | sgonfiato
sgualcire   sgualcirà sgualciranno | sgualcito
accartocciare accartoccerà accartocceranno | accartocciato
spiegazzare spiegazzerà spiegazzeranno | spiegazzato
stropicciare stropiccerà stropicceranno | stropicciato
allentare   allenterà allenteranno | allentato
spaccare    spaccherà spaccheranno | spaccato
scheggiare  scheggerà scheggeranno | scheggiato
rigare      righerà righeranno | rigato
ammaccare   ammaccherà ammaccheranno | ammaccato
appannare   appannerà appanneranno | appannato
sfilacciare sfilaccerà sfilacceranno | sfilacciato
sporcare    sporcherà sporcheranno | sporcato
ammorbidire ammorbidirà ammorbidiranno | ammorbidito
indurire    indurirà induriranno | indurito
scolorire   scolorirà scoloriranno | scolorito
deformare   deformerà deformeranno | deformato
logorare    logorerà logoreranno | logorato
intiepidire intiepidirà intiepidiranno | intiepidito
allagare    allagherà allagheranno | allagato
scrostare   scrosterà scrosteranno | scrostato
aggrovigliare aggroviglierà aggroviglieranno | aggrovigliato
scucire     scucirà scuciranno | scucito
srotolare   srotolerà srotoleranno | srotolato
annodare    annoderà annoderanno | annodato
smagliare   smaglierà smaglieranno | smagliato
spuntare    spunterà spunteranno | spuntato
infeltrire  infeltrirà infeltriranno | infeltrito
slabbrare   slabbrerà slabbreranno | slabbrato
bucare      bucherà bucheranno | bucato
svitare     sviterà sviteranno | svitato
disfare     disferà disferanno | disfatto
sbriciolare sbriciolerà sbricioleranno | sbriciolato
addensare   addenserà addenseranno | addensato
cercare     cercherà cercheranno | cercato
vedere      vedrà vedranno | visto
ricordare   ricorderà ricorderanno | ricordato
preferire   preferirà preferiranno | preferito
crescere    crescerà cresceranno | cresciuto
aprire      aprirà apriranno | aperto
chiudere    chiuderà chiuderanno | chiuso
rompere     romperà romperanno | rotto
spezzare    spezzerà spezzeranno | spezzato
bruciare    brucerà bruceranno | bruciato
sciogliere  scioglierà scioglieranno | sciolto
asciugare   asciugherà asciugheranno | asciugato
bagnare     bagnerà bagneranno | bagnato
piegare     piegherà piegheranno | piegato
gonfiare    gonfierà gonfieranno | gonfiato
svuotare    svuoterà svuoteranno | svuotato
riempire    riempirà riempiranno | riempito
cuocere     cuocerà cuoceranno | cotto
scongelare  scongelerà scongeleranno | scongelato
raffreddare raffredderà raffredderanno | raffreddato
riscaldare  riscalderà riscalderanno | riscaldato
accendere   accenderà accenderanno | acceso
spegnere    spegnerà spegneranno | spento
muovere     muoverà muoveranno | mosso
fermare     fermerà fermeranno | fermato
rovesciare  rovescerà rovesceranno | rovesciato
strappare   strapperà strapperanno | strappato
allargare   allargherà allargheranno | allargato
restringere restringerà restringeranno | ristretto
svegliare   sveglierà sveglieranno | svegliato
alzare      alzerà alzeranno | alzato
abbassare   abbasserà abbasseranno | abbassato
spostare    sposterà sposteranno | spostato
staccare    staccherà staccheranno | staccato
frantumare  frantumerà frantumeranno | frantumato
incrinare   incrinerà incrineranno | incrinato
mangiare    mangerà mangeranno | mangiato
bere        berrà berranno | bevuto
disegnare   disegnerà disegneranno | disegnato
dipingere   dipingerà dipingeranno | dipinto
scrivere    scriverà scriveranno | scritto
leggere     leggerà leggeranno | letto
cantare     canterà canteranno | cantato
cucinare    cucinerà cucineranno | cucinato
studiare    studierà studieranno | studiato
pulire      pulirà puliranno | pulito
stirare     stirerà stireranno | stirato
cucire      cucirà cuciranno | cucito
sbucciare   sbuccerà sbucceranno | sbucciato
guidare     guiderà guideranno | guidato
fumare      fumerà fumeranno | fumato
lavare      laverà laveranno | lavato
ricamare    ricamerà ricameranno | ricamato
multare     multerà multeranno | multato
interrogare interrogherà interrogheranno | interrogato
recitare    reciterà reciteranno | recitato
insegnare   insegnerà insegneranno | insegnato
cacciare    caccerà cacceranno | cacciato
pescare     pescherà pescheranno | pescato
seminare    seminerà semineranno | seminato
tradurre    tradurrà tradurranno | tradotto
comporre    comporrà comporranno | composto
correggere  correggerà correggeranno | corretto
copiare     copierà copieranno | copiato
impastare   impasterà impasteranno | impastato
potare      poterà poteranno | potato
scolpire    scolpirà scolpiranno | scolpito
fotografare fotograferà fotograferanno | fotografato
tessere     tesserà tesseranno | tessuto
spolverare  spolvererà spolvereranno | spolverato
mungere     mungerà mungeranno | munto
raccogliere raccoglierà raccoglieranno | raccolto
accordare   accorderà accorderanno | accordato
addestrare  addestrerà addestreranno | addestrato
restaurare  restaurerà restaureranno | restaurato
lucidare    luciderà lucideranno | lucidato
rilegare    rilegherà rilegheranno | rilegato
"""

# masculine singular, feminine singular, masculine plural, feminine plural
# Passato remoto sg/pl of the verbs the CausI/OdI contexts tell in it (and of essere, the
# auxiliary of its passive: fu aperta), typed in.
REMOTE = """
potere poté poterono
dovere dovette dovettero
ballare ballò ballarono
arare arò ararono
mietere mieté mieterono
tosare tosò tosarono
infornare infornò infornarono
annaffiare annaffiò annaffiarono
spazzare spazzò spazzarono
verniciare verniciò verniciarono
riparare riparò ripararono
essere fu furono
aprire aprì aprirono
chiudere chiuse chiusero
rompere ruppe ruppero
spezzare spezzò spezzarono
bruciare bruciò bruciarono
sciogliere sciolse sciolsero
asciugare asciugò asciugarono
bagnare bagnò bagnarono
piegare piegò piegarono
gonfiare gonfiò gonfiarono
svuotare svuotò svuotarono
riempire riempì riempirono
cuocere cosse cossero
scongelare scongelò scongelarono
raffreddare raffreddò raffreddarono
riscaldare riscaldò riscaldarono
accendere accese accesero
spegnere spense spensero
rovesciare rovesciò rovesciarono
strappare strappò strapparono
allargare allargò allargarono
restringere restrinse restrinsero
svegliare svegliò svegliarono
staccare staccò staccarono
frantumare frantumò frantumarono
incrinare incrinò incrinarono
sgonfiare sgonfiò sgonfiarono
sgualcire sgualcì sgualcirono
accartocciare accartocciò accartocciarono
spiegazzare spiegazzò spiegazzarono
stropicciare stropicciò stropicciarono
allentare allentò allentarono
spaccare spaccò spaccarono
scheggiare scheggiò scheggiarono
rigare rigò rigarono
ammaccare ammaccò ammaccarono
appannare appannò appannarono
sfilacciare sfilacciò sfilacciarono
sporcare sporcò sporcarono
ammorbidire ammorbidì ammorbidirono
indurire indurì indurirono
scolorire scolorì scolorirono
deformare deformò deformarono
logorare logorò logorarono
intiepidire intiepidì intiepidirono
allagare allagò allagarono
scrostare scrostò scrostarono
aggrovigliare aggrovigliò aggrovigliarono
scucire scucì scucirono
srotolare srotolò srotolarono
annodare annodò annodarono
smagliare smagliò smagliarono
spuntare spuntò spuntarono
infeltrire infeltrì infeltrirono
slabbrare slabbrò slabbrarono
bucare bucò bucarono
svitare svitò svitarono
disfare disfece disfecero
sbriciolare sbriciolò sbriciolarono
addensare addensò addensarono
mangiare mangiò mangiarono
bere bevve bevvero
disegnare disegnò disegnarono
dipingere dipinse dipinsero
scrivere scrisse scrissero
cantare cantò cantarono
cucinare cucinò cucinarono
studiare studiò studiarono
pulire pulì pulirono
stirare stirò stirarono
cucire cucì cucirono
sbucciare sbucciò sbucciarono
guidare guidò guidarono
fumare fumò fumarono
lavare lavò lavarono
ricamare ricamò ricamarono
multare multò multarono
interrogare interrogò interrogarono
recitare recitò recitarono
insegnare insegnò insegnarono
cacciare cacciò cacciarono
pescare pescò pescarono
seminare seminò seminarono
comporre compose composero
correggere corresse corressero
impastare impastò impastarono
potare potò potarono
scolpire scolpì scolpirono
fotografare fotografò fotografarono
tessere tessé tesserono
spolverare spolverò spolverarono
mungere munse munsero
raccogliere raccolse raccolsero
accordare accordò accordarono
addestrare addestrò addestrarono
tradurre tradusse tradussero
cercare cercò cercarono
restaurare restaurò restaurarono
lucidare lucidò lucidarono
rilegare rilegò rilegarono
"""

ADJECTIVE_TABLE = """
stanco stanca stanchi stanche
contento contenta contenti contente
felice felice felici felici
interessante interessante interessanti interessanti
nervoso nervosa nervosi nervose
pronto pronta pronti pronte
gentile gentile gentili gentili
tranquillo tranquilla tranquilli tranquille
affamato affamata affamati affamate
nuovo nuova nuovi nuove
vecchio vecchia vecchi vecchie
rotto rotta rotti rotte
sporco sporca sporchi sporche
pulito pulita puliti pulite
pesante pesante pesanti pesanti
bianco bianca bianchi bianche
lungo lunga lunghi lunghe
vuoto vuota vuoti vuote
piccolo piccola piccoli piccole
grande grande grandi grandi
freddo fredda freddi fredde
caldo calda caldi calde
luminoso luminosa luminosi luminose
silenzioso silenziosa silenziosi silenziose
famoso famosa famosi famose
moderno moderna moderni moderne
efficiente efficiente efficienti efficienti
antico antica antichi antiche
scorso scorsa scorsi scorse
ultimo ultima ultimi ultime
primo prima primi prime
tardo tarda tardi tarde
simpatico simpatica simpatici simpatiche
accanto accanto accanto accanto
anziano anziana anziani anziane
argentino argentina argentini argentine
azzurro azzurra azzurri azzurre
cinese cinese cinesi cinesi
cubano cubana cubani cubane
fondente fondente fondenti fondenti
francese francese francesi francesi
genovese genovese genovesi genovesi
giallo gialla gialli gialle
giapponese giapponese giapponesi giapponesi
giovane giovane giovani giovani
grigio grigia grigi grigie
inglese inglese inglesi inglesi
napoletano napoletana napoletani napoletane
nero nera neri nere
olandese olandese olandesi olandesi
persiano persiana persiani persiane
rosso rossa rossi rosse
siciliano siciliana siciliani siciliane
svizzero svizzera svizzeri svizzere
tedesco tedesca tedeschi tedesche
toscano toscana toscani toscane
verde verde verdi verdi
viennese viennese viennesi viennesi
russo russa russi russe
sportivo sportiva sportivi sportive
straniero straniera stranieri straniere
marrone marrone marroni marroni
blu blu blu blu
americano americana americani americane
spagnolo spagnola spagnoli spagnole
greco greca greci greche
portoghese portoghese portoghesi portoghesi
irlandese irlandese irlandesi irlandesi
austriaco austriaca austriaci austriache
polacco polacca polacchi polacche
brasiliano brasiliana brasiliani brasiliane
milanese milanese milanesi milanesi
romano romana romani romane
veneziano veneziana veneziani veneziane
pugliese pugliese pugliesi pugliesi
sardo sarda sardi sarde
calabrese calabrese calabresi calabresi
bolognese bolognese bolognesi bolognesi
fiorentino fiorentina fiorentini fiorentine
piemontese piemontese piemontesi piemontesi
emiliano emiliana emiliani emiliane
abruzzese abruzzese abruzzesi abruzzesi
bergamasco bergamasca bergamaschi bergamasche
norvegese norvegese norvegesi norvegesi
fiammingo fiamminga fiamminghi fiamminghe
turco turca turchi turche
indiano indiana indiani indiane
italiano italiana italiani italiane
africano africana africani africane
arabo araba arabi arabe
siamese siamese siamesi siamesi
campano campana campani campane
scozzese scozzese scozzesi scozzesi
medievale medievale medievali medievali
alto alta alti alte
biondo bionda biondi bionde
barbuto barbuta barbuti barbute
urbano urbana urbani urbane
pezzato pezzata pezzati pezzate
pellegrino pellegrina pellegrini pellegrine
reale reale reali reali
bruno bruna bruni brune
salmonato salmonata salmonati salmonate
selvatico selvatica selvatici selvatiche
nazionale nazionale nazionali nazionali
popolare popolare popolari popolari
matrimoniale matrimoniale matrimoniali matrimoniali
rotondo rotonda rotondi rotonde
ovale ovale ovali ovali
automatico automatica automatici automatiche
impagliato impagliata impagliati impagliate
zincato zincata zincati zincate
argilloso argillosa argillosi argillose
sassoso sassosa sassosi sassose
saraceno saracena saraceni saracene
novello novella novelli novelle
locale locale locali locali
anonimo anonima anonimi anonime
breve breve brevi brevi
contemporaneo contemporanea contemporanei contemporanee
militare militare militari militari
verticale verticale verticali verticali
classico classica classici classiche
celtico celtica celtici celtiche
scientifico scientifica scientifici scientifiche
storico storica storici storiche
fantastico fantastica fantastici fantastiche
olimpionico olimpionica olimpionici olimpioniche
comunale comunale comunali comunali
principale principale principali principali
interno interna interni interne
secolare secolare secolari secolari
rampicante rampicante rampicanti rampicanti
grasso grassa grassi grasse
dorato dorata dorati dorate
profumato profumata profumati profumate
colorato colorata colorati colorate
integrale integrale integrali integrali
artigianale artigianale artigianali artigianali
arancione arancione arancioni arancioni
viola viola viola viola
raro rara rari rare
pregiato pregiata pregiati pregiate
orientale orientale orientali orientali
panoramico panoramica panoramici panoramiche
elettrico elettrica elettrici elettriche
stretto stretta stretti strette
marino marina marini marine
"""

TENSES = ("present", "imperfect", "future")


@dataclass(frozen=True)
class VerbForms:
    lemma: str
    finite: dict[tuple[str, str], str]  # (tense, number) -> form
    participle: str

    def participle_form(self, gender: str, number: str) -> str:
        stem = self.participle[:-1]
        return (
            stem
            + {("m", "sg"): "o", ("f", "sg"): "a", ("m", "pl"): "i", ("f", "pl"): "e"}[
                (gender, number)
            ]
        )


#: the modals' conditional (*potrebbe*: possibility, *dovrebbe*: expectation)
CONDITIONAL = """
potere potrebbe potrebbero
dovere dovrebbe dovrebbero
"""


def verb_table() -> dict[str, VerbForms]:
    rows = {}
    for text in (PRESENT_IMPERFECT, FUTURE_PARTICIPLE):
        for line in text.strip().splitlines():
            lemma, rest = line.split(maxsplit=1)
            rows.setdefault(lemma, []).extend(part.split() for part in rest.split("|"))
    table = {}
    for lemma, (present, imperfect, future, participle) in rows.items():
        finite = {}
        for tense, forms in zip(TENSES, (present, imperfect, future)):
            finite[(tense, "sg")], finite[(tense, "pl")] = forms
        table[lemma] = VerbForms(lemma, finite, participle[0])
    for tense, text in (("remote", REMOTE), ("conditional", CONDITIONAL)):
        for line in text.strip().splitlines():
            lemma, singular, plural = line.split()
            table[lemma].finite[(tense, "sg")] = singular
            table[lemma].finite[(tense, "pl")] = plural
    return table


def adjective_table() -> dict[str, dict[tuple[str, str], str]]:
    table = {}
    for line in ADJECTIVE_TABLE.strip().splitlines():
        ms, fs, mp, fp = line.split()
        table[ms] = {("m", "sg"): ms, ("f", "sg"): fs, ("m", "pl"): mp, ("f", "pl"): fp}
    return table


VERBS = verb_table()
ADJECTIVES = adjective_table()
#: finite form -> [(lemma, tense, number)]
FINITE_FORMS: dict[str, list[tuple[str, str, str]]] = {}
for _verb in VERBS.values():
    for (_tense, _number), _form in _verb.finite.items():
        FINITE_FORMS.setdefault(_form, []).append((_verb.lemma, _tense, _number))

# --- articles and prepositions, restated
_VOWELS = "aeiouàèéìíòóù"
_LO = re.compile(r"^(s[^aeiouàèéìíòóù]|z|gn|ps|pn|x|y|i[aeiou])", re.IGNORECASE)
#: words whose spoken onset takes lo/gli/uno though their spelling does not (chef: /ʃ/, as sci-)
LO_BY_SOUND = {"chef"}
FUSED = {
    "di": ["del", "dello", "dell'", "della", "dei", "degli", "delle"],
    "a": ["al", "allo", "all'", "alla", "ai", "agli", "alle"],
    "da": ["dal", "dallo", "dall'", "dalla", "dai", "dagli", "dalle"],
    "in": ["nel", "nello", "nell'", "nella", "nei", "negli", "nelle"],
    "su": ["sul", "sullo", "sull'", "sulla", "sui", "sugli", "sulle"],
}
ARTICLES = ["il", "lo", "l'", "la", "i", "gli", "le"]
FUSED_TO_ARTICLE = {
    fused: (preposition, article)
    for preposition, forms in FUSED.items()
    for fused, article in zip(forms, ARTICLES)
}
POSSESSIVE_FORMS = {("m", "sg"): "suo", ("f", "sg"): "sua", ("m", "pl"): "suoi", ("f", "pl"): "sue"}
POSSESSIVES = set(POSSESSIVE_FORMS.values())
PREPOSITIONS = {"di", "a", "da", "in", "su", "con", "per", "sotto", "durante", "dopo", "e"}


def vowel_initial(word: str) -> bool:
    """A vowel sound first: h is silent, and i + vowel is a glide (la iena)."""
    word = word.lower().removeprefix("h")
    return word[:1] in _VOWELS and word[:1] != "" and not re.match(r"^i[aeiou]", word)


def takes_lo(word: str) -> bool:
    """lo/gli/uno: s + consonant, z, gn, ps, pn, x, y, i + vowel, or an onset that sounds so."""
    return bool(_LO.match(word)) or word.lower() in LO_BY_SOUND


def expected_definite(gender: str, number: str, next_word: str) -> str:
    if gender == "f":
        return "le" if number == "pl" else ("l'" if vowel_initial(next_word) else "la")
    lo = takes_lo(next_word)
    if number == "pl":
        return "gli" if lo or vowel_initial(next_word) else "i"
    return "lo" if lo else "l'" if vowel_initial(next_word) else "il"


def expected_determiner(kind: str, gender: str, number: str, next_word: str) -> list[str]:
    """The determiner words a noun phrase of this kind should have (reference rules)."""
    article = expected_definite(gender, number, next_word)
    ending = {("m", "sg"): "o", ("f", "sg"): "a", ("m", "pl"): "i", ("f", "pl"): "e"}[
        (gender, number)
    ]
    if kind == "def":
        return [article]
    if kind == "indef":
        if gender == "m":
            return ["uno" if takes_lo(next_word) else "un"]
        return ["un'" if vowel_initial(next_word) else "una"]
    if kind == "dem":
        return ["quest'"] if number == "sg" and vowel_initial(next_word) else ["quest" + ending]
    if kind == "that":
        return [
            {
                "il": "quel",
                "lo": "quello",
                "l'": "quell'",
                "la": "quella",
                "i": "quei",
                "gli": "quegli",
                "le": "quelle",
            }[article]
        ]
    if kind == "some":
        return ["alcun" + ending]
    if kind == "many":
        return ["molt" + ending]
    raise ValueError(kind)


@dataclass(frozen=True)
class ParsedPhrase:
    preposition: str | None
    determiner: list[str]
    noun_form: str
    kind: str
    #: an adjective before the noun (*il vecchio portiere*) or after it (*il vaso cinese*)
    pre_adjective: str | None = None
    post_adjective: str | None = None


#: adjective form -> the lemmas with that form (the hand-written table)
ADJECTIVE_FORMS: dict[str, set[str]] = {}
for _lemma, _forms in ADJECTIVES.items():
    for _form in _forms.values():
        ADJECTIVE_FORMS.setdefault(_form, set()).add(_lemma)


def _is_determiner_word(word: str) -> bool:
    return (
        word in ARTICLES
        or word in POSSESSIVES
        or word in ("loro", "un", "uno", "una", "un'")
        or word.startswith(("quest", "que", "alcun", "molt"))
    )


def _adjectives(words: list[str]) -> tuple[list[str], str | None, str | None]:
    """``words`` without an adjective after the noun and one before it, and those two."""
    pre = post = None
    if len(words) >= 3 and words[-1] in ADJECTIVE_FORMS and not _is_determiner_word(words[-2]):
        words, post = words[:-1], words[-1]
    if len(words) >= 3 and words[-2] in ADJECTIVE_FORMS and not _is_determiner_word(words[-2]):
        pre = words[-2]
        words = [*words[:-2], words[-1]]
    return words, pre, post


def tokens(text: str) -> list[str]:
    """Words, an elided form kept with its apostrophe (``dall'alba`` -> ``dall'``, ``alba``)."""
    return text.replace("'", "' ").split()


def parse_phrase(text: str) -> ParsedPhrase:
    """[preposition] determiner noun, as generated for arguments and attractors."""
    words = tokens(text)
    if words[0] in FUSED and words[1] in ARTICLES:
        raise AssertionError(f"{words[0]!r} + article not fused in {text!r}")
    preposition = None
    if words[0] in FUSED_TO_ARTICLE:
        preposition, article = FUSED_TO_ARTICLE[words[0]]
        words = [article, *words[1:]]
    elif words[0] in PREPOSITIONS:
        preposition, words = words[0], words[1:]
    words, pre, post = _adjectives(words)
    *determiner, noun = words
    if determiner and determiner[0] in POSSESSIVES:
        kind = "poss-kin"
    elif not determiner:
        raise AssertionError(f"no determiner in {text!r}")
    elif determiner[0] in ARTICLES and determiner[1:] == ["loro"]:
        kind = "poss-pl"
    elif determiner[0] in ARTICLES:
        kind = "poss" if len(determiner) == 2 else "def"
    elif determiner[0] in ("un", "uno", "una", "un'"):
        kind = "indef"
    elif determiner[0].startswith("quest"):
        kind = "dem"
    elif determiner[0].startswith("que"):
        kind = "that"
    elif determiner[0].startswith("alcun"):
        kind = "some"
    elif determiner[0] in ("molti", "molte"):
        kind = "many"
    else:
        raise AssertionError(f"unknown determiner in {text!r}")
    return ParsedPhrase(preposition, determiner, noun, kind, pre, post)


def noun_index(lexicon) -> dict[str, list[tuple[object, str]]]:
    """Noun form -> [(noun entry, number)] over a lexicon's nouns (invariable: both numbers)."""
    index: dict[str, list[tuple[object, str]]] = {}
    for noun in lexicon.nouns.values():
        index.setdefault(noun.lemma, []).append((noun, "sg"))
        if not noun.mass:
            index.setdefault(noun.plural, []).append((noun, "pl"))
    return index


@dataclass(frozen=True)
class CheckedPhrase:
    lemma: str
    number: str
    gender: str
    kind: str
    preposition: str | None


_DI_FORMS = ("di", *FUSED["di"])


def split_complement(text: str) -> tuple[str, str | None]:
    """A noun phrase and its "di" complement (*i piatti | del cameriere*, *i pescatori | di
    trote*), or the phrase and None; a phrase that starts with its preposition keeps it."""
    words = tokens(text)
    for index in range(2, len(words)):
        if words[index] in _DI_FORMS:
            join = " ".join
            return join(words[:index]).replace("' ", "'"), join(words[index:]).replace("' ", "'")
    return text, None


def check_complement(complement: str, nouns, head_mass: bool = False) -> None:
    """A "di" complement is a bare plural or mass noun (*di trote*, *di storia*), a bare
    singular after a mass noun (OdI's I-Int naming a singular doer, *il grano di mietitore*),
    or a phrase with its article fused to "di" (*del cameriere*)."""
    words = tokens(complement)
    if words[0] == "di" and len(words) == 2:
        readings = nouns.get(words[1], [])
        assert any(n == "pl" or noun.mass or head_mass for noun, n in readings), complement
    else:
        assert check_phrase(complement, nouns).preposition == "di", complement


def check_phrase(text: str, nouns, expected_number: str | None = None) -> CheckedPhrase:
    """Re-derive a generated noun phrase and assert its determiner agrees with its noun.

    ``nouns`` is :func:`noun_index` of the lexicon. Raises AssertionError naming the phrase
    when no reading of the noun (number, gender) gives exactly these determiner words. A "di"
    complement after the noun is checked on its own (:func:`check_complement`).
    """
    text, complement = split_complement(text)
    parsed = parse_phrase(text)
    readings = nouns.get(parsed.noun_form)
    assert readings, f"{parsed.noun_form!r} of {text!r} is not a noun form of the lexicon"
    next_word = parsed.pre_adjective or parsed.noun_form
    for noun, number in readings:
        if expected_number is not None and number != expected_number:
            continue
        gender = noun.plural_gender if number == "pl" and noun.plural_gender else noun.gender
        if not all(
            _agrees(adjective, gender, number)
            for adjective in (parsed.pre_adjective, parsed.post_adjective)
        ):
            continue
        if complement is not None and complement not in {m.tail for m in noun.modifiers}:
            check_complement(complement, nouns, noun.mass)  # else one of its modifiers
        possessive = POSSESSIVE_FORMS[(gender, number)]
        if parsed.kind == "poss-kin":
            expected = [possessive] if noun.kinship and number == "sg" else None
        elif parsed.kind == "poss":
            expected = [expected_definite(gender, number, possessive), possessive]
        elif parsed.kind == "poss-pl":  # loro takes the article, before kinship nouns too
            expected = [expected_definite(gender, number, "loro"), "loro"]
        elif parsed.kind in ("indef",) and number == "pl":
            expected = None
        else:
            expected = expected_determiner(parsed.kind, gender, number, next_word)
        if parsed.determiner == expected:
            return CheckedPhrase(noun.lemma, number, gender, parsed.kind, parsed.preposition)
    raise AssertionError(
        f"determiner of {text!r} agrees with no reading of {parsed.noun_form!r} "
        f"(expected number {expected_number})"
    )


def _agrees(adjective: str | None, gender: str, number: str) -> bool:
    """No adjective, or one whose hand-written form for ``gender`` and ``number`` it is."""
    if adjective is None:
        return True
    return any(
        ADJECTIVES[lemma][(gender, number)] == adjective for lemma in ADJECTIVE_FORMS[adjective]
    )


# Noun phrases typed out by hand: noun, number, determiner kind, preposition (- for none),
# and the phrase. Loanwords whose sound, not spelling, decides the article come first.
PHRASE_TABLE = """
chef    sg def       -   lo chef
chef    sg indef     -   uno chef
chef    sg def       di  dello chef
chef    sg def       a   allo chef
chef    sg def       da  dallo chef
chef    sg def       in  nello chef
chef    sg def       su  sullo chef
chef    sg def       con con lo chef
chef    sg that      -   quello chef
chef    sg dem       -   questo chef
chef    sg poss      -   il suo chef
chef    pl def       -   gli chef
chef    pl def       di  degli chef
chef    pl def       da  dagli chef
chef    pl def       su  sugli chef
chef    pl partitive -   degli chef
chef    pl that      -   quegli chef
chef    pl some      -   alcuni chef
yogurt  sg def       -   lo yogurt
yogurt  sg indef     -   uno yogurt
yogurt  pl def       di  degli yogurt
yak     sg def       da  dallo yak
yak     pl that      -   quegli yak
gnu     sg indef     -   uno gnu
pneumatico pl def    su  sugli pneumatici
xilofono sg that     -   quello xilofono
zoo     sg def       in  nello zoo
sciopero sg def      da  dallo sciopero
chiave  sg def       -   la chiave
chiodo  sg def       di  del chiodo
chitarra sg indef    -   una chitarra
computer sg def      -   il computer
computer pl def      -   i computer
software sg def      di  del software
camion  pl that      -   quei camion
valzer  sg indef     -   un valzer
autobus sg def       -   l'autobus
autobus sg dem       -   quest'autobus
"""


def phrase_table() -> list[tuple[str, str, str, str | None, str]]:
    """(noun, number, determiner kind, preposition or None, phrase) rows of PHRASE_TABLE."""
    rows = []
    for line in PHRASE_TABLE.strip().splitlines():
        noun, number, kind, preposition, phrase = line.split(maxsplit=4)
        rows.append((noun, number, kind, None if preposition == "-" else preposition, phrase))
    return rows


PHRASES = phrase_table()
