package geo

import "strings"

// A town's name is often an ordinary word of some language: Spanish "caen" (they fall) is Caen,
// Portuguese "natal" (Christmas) is Natal, German "Essen" (food) is Essen. In a text written in
// that language such a name counts only with evidence that it is the place: a preposition of
// place right before it ("à Caen", "em Natal", "in Essen"), or its region or country right
// after it. English names of that kind are flagged in the data files (see commonWord).

// wordNames are, for each language, the names of towns of 15,000 people or more that are
// frequent words of the language, folded as keys. They were picked by hand from the names among
// the 10,000 most frequent words of the OpenSubtitles 2018 lists (github.com/hermitdave/
// FrequencyWords), leaving out the names the lists hold as names (Paris, Lima, Boston).
var wordNames = map[string]map[string]bool{
	"es": keySet("un una como este papa tienen van seria chico iba tomar pueblo habra mala largo vista " +
		"mesa normal hermosa boda sala avion sale alma anda libertad baja bar linda tema coronel leer sur " +
		"banda azul obra esperanza tome flores isla cine come encantado cabo silla dura dara central limpio " +
		"tamano gracia superior registro esquina tumba plato fria aventura granja campana pasan taza milagro " +
		"regla madera libres marina frontera saco guarda socorro conde federal chino pare custodia paredes " +
		"nacimiento condado metro ronda tono crema ventanas union encanto escondido matara paraiso palo salto " +
		"barra deba luce corona mascara alegre americana salta sano medias progreso rota amarillo drama bello " +
		"tigre indio retiro altos onda plano soledad colonia cabra diamante caen goma novato manta tabaco " +
		"sana hilo raya pila santos mata marca"),
	"pt": keySet("como sim este anda seria porta quarto mao mau plano tomar sala natal linda propria vista " +
		"normal mesa tera papa pare sete loja bar cair bela guarda cabo saida coronel alma esperanca mestre " +
		"socorro saco cabra mala azul parede estrela chaves flores central come floresta praia banda tome " +
		"franca lar jardim vitoria massa anjo registro castelo tendo dura escondido superior federal tire " +
		"virar obra paredes passos mora mascara portao prato chato esquina fria resistencia deva onda paraiso " +
		"metro rota cento uniao custodia pila posse prata aventura salto pau morar rodas tema feira cacador " +
		"salta altos escada conde gravata beira vera tigre torres condado marte vigia rocha pinto piedade " +
		"drama tubarao lido alegre palmas moca moro novato indio encantado remedios bata matara fada senta " +
		"soro ronda greve barra barras moram retiro largo coro santuario serra suar tumba capela cruzeiro " +
		"lida vence colinas mula patos leme mentor redencao queimados cordeiro tela santos porto pode mata"),
	"fr": keySet("un mon sur ans papa tete vite ami sens police mari peine plaisir celle sale avion surprise " +
		"mission coin bar normal tire fiche assis fier parole durant date labo gardez terme lac sucre central " +
		"alliance temple mobile stade orange croix tours moche libres union bah metro roses medias come vise " +
		"greve tigre deal vitre melle male guider pop boom fontaine reservoir humble ruse cine menton naze " +
		"racine lier dome bati mentor"),
	"de": keySet("auch man wer ware waren mach essen ende allen boden kamen zug holt lage normal bar ans " +
		"singen leer keller haar mut hof norden mitte langen klang wenden horten male senden schilde gerede " +
		"baden merke morden adler trat tank halle eisen siegen raub hit springe much enger galt bergen " +
		"leiden erlangen weil wetter oma"),
	"it": keySet("un una ho come hanno po voi male guarda donna porta bello papa pare parla vista faro parola " +
		"vada parole pace luce vera fermo porto bar sala senta dura borsa passi rosso ami vite provo propria " +
		"cento stella erba vittoria seria urla quarto banda salto marina salta custodia alba sale onda fondi " +
		"americana lieto dosso darsi metro linda potenza massa largo pasto sano bimbo sete sodo tema noto " +
		"mandi tono corona crema registro topi estero tigre marte vari sana mori basi beni molo fili tata " +
		"prato campana central mobile palo uva panna mari noci asino morsi reni osa panorama eden celle"),
}

// functionWords tell a text's language: frequent short words each language uses and the others
// do not (or rarely).
var functionWords = map[string]map[string]bool{
	"en": keySet("the and of to is are was were this that with for you it be have has not but from at by"),
	"es": keySet("el los las del y es en un una con por para pero muy hay esta este estas todo todos lo mi ya que como " +
		"cuando donde yo tu su sus nos al porque tambien nada siempre nunca aqui"),
	"pt": keySet("o os as do da dos das e em um uma com por para mas muito tem esta este isso tudo todos nao no na ao ja que como " +
		"quando onde eu voce vc seu sua meu minha nos porque tambem nada sempre nunca aqui pra ta"),
	"fr": keySet("le la les des du et est en un une avec pour mais tres il elle nous vous je on ce cette dans sur pas que au " +
		"quand ou mon ma mes son sa ses aux parce aussi rien toujours jamais ici"),
	"de": keySet("der die das den dem des und ist ein eine mit fur aber sehr ich wir sie er nicht im auf zu von bei heute " +
		"wenn wo mein meine dein sein seine uns weil auch nichts immer nie hier macht sagt noch schon nur wie was"),
	"it": keySet("il lo gli della delle e di un una con per ma molto che sono non nel alla questo " +
		"quando dove io mio mia suo sua noi perche anche niente sempre mai qui"),
}

// placePrepositions come before a place's name in each language: "in Essen", "à Caen", "em
// Natal". English ones also admit an English-word town of 15,000 people ("in Bath").
var placePrepositions = keySet("in at from to near around outside into across through toward towards via " +
	"en a de desde hacia hasta para cerca entre " +
	"em no na ao do da dos das pra ate perto " +
	"au aux du depuis vers pour pres dans " +
	"nach aus bei von zwischen ab " +
	"di per verso vicino nel")

func keySet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[key(w)] = true
	}
	return m
}

// textLanguages returns the languages the text may be written in: those whose function words
// it holds at least half as often as the most frequent language's, none when it holds none.
// Neighbours share words ("que", "como"), so a short text is often several.
func textLanguages(words []textWord) []string {
	counts := map[string]int{}
	best := 0
	for lang, fw := range functionWords {
		for _, w := range words {
			if fw[w.folded] {
				counts[lang]++
			}
		}
		best = max(best, counts[lang])
	}
	var langs []string
	for lang, n := range counts {
		if n > 0 && 2*n >= best {
			langs = append(langs, lang)
		}
	}
	return langs
}

// wordInText reports whether a name is an ordinary word in one of the text's languages.
func wordInText(name string, langs []string) bool {
	for _, l := range langs {
		if wordNames[l][name] {
			return true
		}
	}
	return false
}
