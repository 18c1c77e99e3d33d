package search

import (
	"strings"
	"sync"

	"github.com/sightline/sightline/internal/query"
)

// StopWords is the stop-word set of a language (ISO 639-1), folded as posts are; empty for
// languages without a list. The assistant drops these from questions before it searches.
func StopWords(language string) map[string]bool { return stopWordsOf(language) }

// stopWordLists are the words that say nothing of what a post is about, by language: articles,
// pronouns, prepositions, conjunctions, auxiliaries and the commonest adverbs. Written by hand
// (with their accents: they are folded as posts are, so "très" is also "tres", "йому" also
// "иому"); words under three letters are listed for completeness though the word cloud never
// counts them. English holds contractions written without their apostrophe (dont, im) and the
// leftovers of social posts (rt, amp); the word cloud drops the halves of "don't" itself
// (words.go), as a "haven" listed here would be a Dutch harbour too.
var stopWordLists = map[string]string{
	"en": `a about above after again against all almost along already also although always am among an and
		another any anybody anyone anything anyway are around as at away be became because become been
		before being below between both but by can cannot cant could couldnt did didnt do does doesnt doing
		done dont down during each either else enough even ever every everyone everything few for from
		further get gets getting go goes going gone got had has have having he her here hers herself him
		himself his how however i if im in into is isnt it its itself just least less let lets like ll made
		make many may me might more most much must my myself neither never no nobody none nor not nothing
		now of off often oh ok okay on once one only onto or other others our ours ourselves out over own
		per perhaps quite rather re really said same say says shall she should since so some somebody
		someone something still such than that thats the their theirs them themselves then there theres
		these they this those though through thus till to too toward towards under unless until up upon us
		ve very via was we well were what whatever when whenever where whether which while who whoever whole
		whom whose why will with within without would yes yet you youre your yours yourself yourselves rt
		amp http https www com`,
	"es": `a al algo algún alguna algunas alguno algunos ante antes aquel aquella aquellas aquellos aquí así
		ahí allí allá aun aún aunque bajo bien cada casi como cómo con contra cual cuál cuales cualquier
		cuando cuándo cuanto de del desde donde dónde dos durante e el él ella ellas ellos en entonces entre
		era eran eres es esa esas ese eso esos esta está estaba estaban estado estamos están estar estas
		este esto estos estoy fue fueron fui ha había habían han has hasta hay he hemos hace hacen hacer
		hacia la las le les lo los más me mi mí mis mismo misma mucha muchas mucho muchos muy nada ni ningún
		ninguna ninguno no nos nosotras nosotros nuestra nuestras nuestro nuestros o os otra otras otro
		otros para pero poco por porque pues que qué quien quién quienes se sea sean según ser será si sí
		sido siempre sin sino sobre sois solo sólo somos son soy su sus también tan tanto te tenemos tener
		tengo ti tiene tienen toda todas todo todos tras tu tú tus un una unas uno unos usted ustedes va van
		vez y ya yo`,
	"fr": `à ai aie aient ainsi alors as au aucun aucune aussi autre autres aux avaient avais avait avant avec
		avez aviez avions avoir avons ayant c ça car ce ceci cela celle celles celui cependant ces cet cette
		ceux chaque chez comme comment d dans de depuis des donc dont du elle elles en encore entre es est et
		étaient étais était été être eu eux fait faire fois font hors ici il ils j je jusqu l la là le les
		leur leurs lors lui m ma mais me même mes moi moins mon n ne ni nos notre nous on ont or ou où par
		parce pas peu peut plus pour pourquoi qu quand que quel quelle quelles quels qui quoi s sa sans se
		sera ses seulement si son sont sous sur t ta tandis te tes toi ton tous tout toute toutes très tu
		un une vers voici voilà vos votre vous y`,
	"de": `aber alle allem allen aller alles als also am an ander andere anderen anders auch auf aus bei beim
		bin bis bist bitte da dabei dadurch dafür dagegen daher damit dann darauf darum das dass dein deine
		dem den denn der des deshalb dessen dich die dies diese diesem diesen dieser dieses dir doch dort du
		durch ein eine einem einen einer eines einige er es etwas euch euer für gegen gewesen hab habe haben
		hat hatte hatten hier hin hinter ich ihm ihn ihnen ihr ihre ihrem ihren ihrer im in indem ins ist ja
		je jede jedem jeden jeder jedes jetzt kann kein keine keinem keinen keiner können könnte man manche
		mehr mein meine meinem meinen meiner mich mir mit muss musste nach nicht nichts noch nun nur ob oder
		ohne sehr sein seine seinem seinen seiner seit sich sie sind so solche soll sollte sondern sonst über
		um und uns unser unsere unter viel vom von vor wann war waren warum was weil welche welchem welchen
		welcher welches wenn wer werde werden wie wieder will wir wird wo wurde wurden zu zum zur zwar
		zwischen`,
	"pt": `a à ao aos aquela aquelas aquele aqueles aquilo as às até com como da das de dela delas dele deles
		depois do dos e é ela elas ele eles em entre era eram essa essas esse esses esta está estão estas
		estava estavam este estes eu foi foram há isso isto já lhe lhes mais mas me mesmo meu meus minha
		minhas muito muitos na não nas nem no nos nós nossa nossas nosso nossos num numa o os ou para pela
		pelas pelo pelos por porque quando que quem se sem ser será seu seus só sua suas são também te tem
		têm tinha tu tua tuas um uma umas uns vai você vocês vos`,
	"it": `a ad agli ai al alla alle allo anche avere aveva c che chi ci come con contro cui da dagli dai dal
		dalla dalle dallo degli dei del dell della delle dello di dove e è ed era erano essere fa fra gli ha
		hanno ho i il in io la le lei li lo loro lui ma mi mia mie miei mio ne negli nei nel nell nella nelle
		nello no noi non nostra nostro o ogni per perché più può quale quali quando quanto quella quelle
		quelli quello questa queste questi questo se sei si sia siamo siete sono su sua sue sui sul sull
		sulla sulle suo suoi tra tu tua tue tuo tuoi tutti tutto un una uno vi voi`,
	"nl": `aan al alle als altijd andere ben bij daar dan dat de der deze die dit doch doen door dus een eens
		en er ge geen geweest haar had heb hebben heeft hem het hier hij hoe hun iemand iets ik in is ja je
		kan kon kunnen maar me meer men met mij mijn moet na naar niet niets nog nu of om omdat onder ons
		ook op over reeds te tegen toch toen tot u uit uw van veel voor want waren was wat we wel werd
		wezen wie wij wil worden wordt zal ze zelf zich zij zijn zo zonder zou`,
	"tr": `acaba ama ancak artık aslında bana bazı belki ben beni benim bir biraz birçok biri birkaç biz bize
		bizi bizim bu buna bunda bundan bunlar bunları bunların bunu bunun da daha de değil diğer diye en
		gibi göre hem hep hepsi her herkes hiç için ile ise işte kadar ki kim kimse mi mı mu mü nasıl ne
		neden nerede niye o olan olarak oldu olduğu olduğunu olmak olsa olur on ona ondan onlar onları
		onların onu onun sadece sana sen senin siz sizi sizin şey şu şuna şunu tüm ve veya ya yani yine
		zaten çok çünkü`,
	"ru": `а без более бы был была были было быть в вам вас весь во вот все всего всех вы где да даже для до
		его ее её ей ему если есть еще ещё же за здесь и из или им их к как какая какие какой когда кто ли
		либо между меня мне много может мой мы на над надо наш не него нее неё нет ни них но ну о об однако
		он она они оно от очень по под после потому почему при про раз с сам свой себе себя со так также
		такой там те тем то тоже только том тот тут ты у уж уже хотя чего чей чем что чтобы эта эти это
		этого этой этом этот я`,
	"uk": `а або адже але б без би був була були було бути в вам вас весь ви від він вона вони воно все всі
		всього де для до є його її їй їм їх з за зі і й коли крім лише мене мені ми між мій мною на над
		наш не нам нас нема немає них ні ну о однак по під після про та так також там те теж тепер ти то
		тобто тому тут у хоча це цей ці цього цим ця через чи що щоб як який яка які якщо я`,
	"ar": `من إلى الى عن على في مع هذا هذه ذلك تلك التي الذي الذين هو هي هم هن أنا انا نحن أنت انت أنتم
		كان كانت يكون تكون قد لقد لا لم لن ما ماذا متى أين كيف لماذا إن أن إذا كل بعض غير بين بعد قبل حتى
		ثم أو أي أم بل لكن لأن وقد وهو وهي وفي ومن وعلى وأن وكان عند منذ فيه فيها منها منه عليه عليها به
		بها له لها لهم هناك هنا كما أيضا فقط جدا مثل حول خلال ضد دون إلا يا أكثر`,
}

var (
	stopWordsOnce sync.Once
	stopWords     map[string]map[string]bool // language code to folded words
	anyStopWord   map[string]bool            // every language's
)

// stopWordsOf is the stop-word set of a language (ISO 639-1, a region such as pt-BR ignored),
// empty for languages without a list.
func stopWordsOf(language string) map[string]bool {
	stopWordsOnce.Do(func() {
		stopWords, anyStopWord = map[string]map[string]bool{}, map[string]bool{}
		for lang, list := range stopWordLists {
			set := map[string]bool{}
			for _, w := range query.Tokens(list) {
				set[w], anyStopWord[w] = true, true
			}
			stopWords[lang] = set
		}
	})
	lang, _, _ := strings.Cut(strings.ToLower(language), "-")
	return stopWords[lang]
}
