package simulator

// The simulator's text, by language. Placeholders: {city}, {n}, {tag} (the event hashtag),
// {org}, and in threat and market texts {email}, {phone}, {ip}, {card}, {ssn}, {onion}.
// Every organization, event and entity is invented; card numbers, SSNs, IPs, phone numbers and
// domains come from ranges reserved for tests and documentation.

// languages the simulated authors write in.
var languages = []string{"en", "es", "fr", "de", "pt", "ar", "ru", "uk", "ja", "it", "tr"}

// languageWeights: how many authors write in each language, in the order of languages.
var languageWeights = []int{34, 10, 8, 7, 8, 7, 8, 4, 6, 4, 4}

// everyday is what people post when nothing is happening.
var everyday = map[string][]string{
	"en": {
		"Traffic is completely stuck on the ring road in {city} this morning.",
		"Best coffee in {city}? Asking for a friend who just moved here.",
		"Rain again in {city}. Third day in a row.",
		"Great match tonight, the stadium in {city} was packed.",
		"The new metro line in {city} finally opened. Took {n} minutes to cross town.",
		"Anyone else hear the sirens near the old town in {city}?",
	},
	"es": {
		"El tráfico en {city} está imposible esta mañana.",
		"¿Dónde se come el mejor pan en {city}? Recomendaciones, por favor.",
		"Otra vez lluvia en {city}. Ya van tres días.",
		"Partidazo esta noche, el estadio de {city} estaba lleno.",
		"Por fin abrieron la nueva línea de metro en {city}: {n} minutos de punta a punta.",
		"¿Alguien más escuchó las sirenas cerca del centro de {city}?",
	},
	"fr": {
		"Circulation complètement bloquée sur le périphérique de {city} ce matin.",
		"Le meilleur café de {city} ? Je demande pour un ami qui vient d'emménager.",
		"Encore de la pluie à {city}. Troisième jour d'affilée.",
		"Quel match ce soir, le stade de {city} était plein à craquer.",
		"La nouvelle ligne de métro de {city} a enfin ouvert : {n} minutes pour traverser la ville.",
		"Quelqu'un d'autre a entendu les sirènes près du centre de {city} ?",
	},
	"de": {
		"Auf dem Ring in {city} geht heute Morgen gar nichts mehr.",
		"Wo gibt es den besten Kaffee in {city}? Frage für einen Freund, der gerade hergezogen ist.",
		"Schon wieder Regen in {city}. Dritter Tag in Folge.",
		"Was für ein Spiel heute Abend, das Stadion in {city} war voll.",
		"Die neue U-Bahn-Linie in {city} ist endlich offen: {n} Minuten quer durch die Stadt.",
		"Hat noch jemand die Sirenen in der Altstadt von {city} gehört?",
	},
	"pt": {
		"O trânsito em {city} está parado desde cedo.",
		"Qual é o melhor café de {city}? Pergunto para um amigo que acabou de se mudar.",
		"Chuva de novo em {city}. Terceiro dia seguido.",
		"Que jogo hoje à noite, o estádio de {city} estava lotado.",
		"Finalmente abriram a nova linha de metrô em {city}: {n} minutos de ponta a ponta.",
		"Mais alguém ouviu as sirenes perto do centro de {city}?",
	},
	"ar": {
		"الزحام خانق على الطريق الدائري في {city} هذا الصباح.",
		"أين أفضل قهوة في {city}؟ أسأل لصديق انتقل للتو.",
		"مطر مرة أخرى في {city}. اليوم الثالث على التوالي.",
		"مباراة رائعة الليلة، كان الملعب في {city} ممتلئًا.",
		"افتتح أخيرًا خط المترو الجديد في {city}: {n} دقيقة لعبور المدينة.",
		"هل سمع أحد صفارات الإنذار قرب وسط {city}؟",
	},
	"ru": {
		"На кольцевой в {city} с утра всё стоит.",
		"Где лучший кофе в {city}? Спрашиваю для друга, который только переехал.",
		"Опять дождь в {city}. Третий день подряд.",
		"Отличный матч сегодня, стадион в {city} был полон.",
		"Наконец открыли новую линию метро в {city}: {n} минут через весь город.",
		"Кто-нибудь ещё слышал сирены в центре {city}?",
	},
	"uk": {
		"На об'їзній у {city} з ранку все стоїть.",
		"Де найкраща кава в {city}? Питаю для друга, який щойно переїхав.",
		"Знову дощ у {city}. Третій день поспіль.",
		"Чудовий матч сьогодні, стадіон у {city} був повний.",
		"Нарешті відкрили нову лінію метро в {city}: {n} хвилин через усе місто.",
		"Хтось ще чув сирени в центрі {city}?",
	},
	"ja": {
		"{city}の環状線、朝から全然動かない。",
		"{city}で一番おいしいコーヒーの店はどこ？引っ越してきた友達のために聞いてます。",
		"{city}はまた雨。三日連続。",
		"今夜の試合最高だった。{city}のスタジアムは満員。",
		"{city}の新しい地下鉄がやっと開通。街を横断するのに{n}分。",
		"{city}の中心部でサイレンが聞こえた人いる？",
	},
	"it": {
		"Traffico completamente bloccato sulla tangenziale di {city} stamattina.",
		"Il miglior caffè di {city}? Chiedo per un amico appena trasferito.",
		"Ancora pioggia a {city}. Terzo giorno di fila.",
		"Che partita stasera, lo stadio di {city} era pieno.",
		"Finalmente ha aperto la nuova linea della metro a {city}: {n} minuti per attraversare la città.",
		"Qualcun altro ha sentito le sirene vicino al centro di {city}?",
	},
	"tr": {
		"{city} çevre yolunda sabahtan beri trafik durmuş durumda.",
		"{city}'de en iyi kahve nerede? Yeni taşınan bir arkadaşım için soruyorum.",
		"{city}'de yine yağmur. Üst üste üçüncü gün.",
		"Bu akşam harika bir maçtı, {city}'deki stadyum doluydu.",
		"{city}'deki yeni metro hattı sonunda açıldı: şehri {n} dakikada geçiyorsun.",
		"{city} merkezinde siren sesi duyan başka kimse var mı?",
	},
}

// headline is a news item: a title and its first line.
type headline struct{ title, body string }

var headlines = map[string][]headline{
	"en": {
		{"City council in {city} approves new housing plan", "The vote passed by a narrow margin after a long debate."},
		{"Port of {city} reports record container traffic", "Officials credited new automation at the terminals."},
		{"Heatwave warning issued for {city}", "Temperatures are expected to reach {n} degrees this week."},
	},
	"es": {
		{"El ayuntamiento de {city} aprueba un nuevo plan de vivienda", "La votación salió adelante por un estrecho margen."},
		{"El puerto de {city} registra un tráfico récord", "Las autoridades lo atribuyen a la automatización de las terminales."},
		{"Alerta por ola de calor en {city}", "Se esperan temperaturas de {n} grados esta semana."},
	},
	"fr": {
		{"Le conseil municipal de {city} adopte un nouveau plan logement", "Le vote a été acquis de justesse après un long débat."},
		{"Le port de {city} annonce un trafic record", "Les responsables citent l'automatisation des terminaux."},
		{"Alerte canicule à {city}", "Les températures devraient atteindre {n} degrés cette semaine."},
	},
	"de": {
		{"Stadtrat von {city} beschließt neues Wohnungsbauprogramm", "Die Abstimmung fiel nach langer Debatte knapp aus."},
		{"Hafen {city} meldet Rekordumschlag", "Die Verwaltung verweist auf die neue Automatisierung der Terminals."},
		{"Hitzewarnung für {city}", "Diese Woche werden bis zu {n} Grad erwartet."},
	},
	"pt": {
		{"Câmara de {city} aprova novo plano de habitação", "A votação passou por margem estreita após longo debate."},
		{"Porto de {city} registra movimento recorde", "As autoridades atribuem o resultado à automação dos terminais."},
		{"Alerta de onda de calor em {city}", "As temperaturas devem chegar a {n} graus nesta semana."},
	},
	"ar": {
		{"مجلس مدينة {city} يقر خطة إسكان جديدة", "جاء التصويت بفارق ضئيل بعد نقاش طويل."},
		{"ميناء {city} يسجل حركة حاويات قياسية", "عزا المسؤولون ذلك إلى أتمتة المحطات."},
		{"تحذير من موجة حر في {city}", "يتوقع أن تصل درجات الحرارة إلى {n} درجة هذا الأسبوع."},
	},
	"ru": {
		{"Горсовет {city} утвердил новую жилищную программу", "Решение приняли с небольшим перевесом после долгих споров."},
		{"Порт {city} сообщил о рекордном грузообороте", "В администрации это объясняют автоматизацией терминалов."},
		{"В {city} объявлено предупреждение о жаре", "На этой неделе ожидается до {n} градусов."},
	},
	"uk": {
		{"Міська рада {city} ухвалила нову житлову програму", "Рішення ухвалили з невеликою перевагою після довгих дебатів."},
		{"Порт {city} повідомив про рекордний вантажообіг", "Посадовці пояснюють це автоматизацією терміналів."},
		{"У {city} оголосили попередження про спеку", "Цього тижня очікується до {n} градусів."},
	},
	"ja": {
		{"{city}市議会、新たな住宅計画を可決", "長い議論の末、僅差で可決された。"},
		{"{city}港、コンテナ取扱量が過去最高", "当局はターミナルの自動化を理由に挙げた。"},
		{"{city}に熱中症警戒アラート", "今週は最高{n}度に達する見込み。"},
	},
	"it": {
		{"Il consiglio comunale di {city} approva il nuovo piano casa", "Il voto è passato di misura dopo un lungo dibattito."},
		{"Il porto di {city} registra un traffico record", "I dirigenti citano l'automazione dei terminal."},
		{"Allerta caldo a {city}", "Attese temperature fino a {n} gradi questa settimana."},
	},
	"tr": {
		{"{city} Belediye Meclisi yeni konut planını onayladı", "Oylama uzun bir tartışmanın ardından az farkla kabul edildi."},
		{"{city} Limanı rekor konteyner trafiği açıkladı", "Yetkililer bunu terminallerdeki otomasyona bağladı."},
		{"{city} için sıcak hava uyarısı", "Bu hafta sıcaklığın {n} dereceye ulaşması bekleniyor."},
	},
}

// developing ends a news item about a breaking event.
var developing = map[string]string{
	"en": "This is a developing story.", "es": "Noticia en desarrollo.", "fr": "Information en cours d'actualisation.",
	"de": "Die Lage ist noch unklar.", "pt": "Notícia em atualização.", "ar": "الخبر قيد التحديث.",
	"ru": "Новость дополняется.", "uk": "Новина доповнюється.", "ja": "詳細は追って更新します。",
	"it": "Notizia in aggiornamento.", "tr": "Haber güncelleniyor.",
}

// askOpinion follows a forum thread's title.
var askOpinion = map[string]string{
	"en": "Thoughts?", "es": "¿Qué opinan?", "fr": "Qu'en pensez-vous ?", "de": "Was meint ihr?",
	"pt": "O que acham?", "ar": "ما رأيكم؟", "ru": "Что думаете?", "uk": "Що думаєте?",
	"ja": "どう思う？", "it": "Che ne pensate?", "tr": "Ne düşünüyorsunuz?",
}

// replies answer a post in a thread.
var replies = map[string][]string{
	"en": {"Same here, stay safe everyone.", "Source? I can't find anything about this.", "This is exactly what I was worried about.", "Can confirm, I'm nearby."},
	"es": {"Aquí igual, cuídense todos.", "¿Fuente? No encuentro nada sobre esto.", "Justo lo que me temía.", "Confirmo, estoy cerca."},
	"fr": {"Pareil ici, faites attention à vous.", "Une source ? Je ne trouve rien là-dessus.", "C'est exactement ce que je craignais.", "Je confirme, je suis à côté."},
	"de": {"Hier genauso, passt auf euch auf.", "Quelle? Ich finde nichts dazu.", "Genau davor hatte ich Angst.", "Kann ich bestätigen, bin in der Nähe."},
	"pt": {"Aqui também, cuidem-se.", "Fonte? Não encontro nada sobre isso.", "Era exatamente isso que eu temia.", "Confirmo, estou perto."},
	"ar": {"نفس الشيء هنا، انتبهوا لأنفسكم.", "ما المصدر؟ لا أجد شيئًا عن هذا.", "هذا بالضبط ما كنت أخشاه.", "أؤكد، أنا قريب من المكان."},
	"ru": {"Здесь то же самое, берегите себя.", "Источник? Ничего не могу найти.", "Именно этого я и боялся.", "Подтверждаю, я рядом."},
	"uk": {"Тут те саме, бережіть себе.", "Джерело? Нічого не можу знайти.", "Саме цього я й боявся.", "Підтверджую, я поруч."},
	"ja": {"こちらも同じ。みんな気をつけて。", "ソースは？何も見つからない。", "まさに心配していたこと。", "確認した、近くにいる。"},
	"it": {"Anche qui, state attenti.", "Fonte? Non trovo niente.", "È proprio quello che temevo.", "Confermo, sono vicino."},
	"tr": {"Burada da aynı, herkes dikkatli olsun.", "Kaynak? Bununla ilgili bir şey bulamıyorum.", "Tam da korktuğum şey.", "Doğruluyorum, yakınlardayım."},
}

// eventKind is a kind of invented event that sets off a burst of posts.
type eventKind struct {
	name    string // in the hashtag: #RotterdamBlackout
	threat  bool   // posts about it carry violence
	media   []string
	phrases map[string][]string
}

var eventKinds = []eventKind{
	{"Protest", false, []string{"protest-signs", "street-crowd", "police-line"}, map[string][]string{
		"en": {"Thousands marching through {city} right now {tag}", "Police have closed the main square in {city} as the protest grows {tag}"},
		"es": {"Miles de personas marchan ahora por {city} {tag}"},
		"fr": {"Des milliers de manifestants défilent en ce moment à {city} {tag}"},
		"de": {"Tausende ziehen gerade durch {city} {tag}"},
		"pt": {"Milhares de pessoas marcham agora por {city} {tag}"},
		"ar": {"الآلاف يتظاهرون الآن في شوارع {city} {tag}"},
		"ru": {"Тысячи людей сейчас идут маршем по {city} {tag}"},
		"uk": {"Тисячі людей зараз марширують вулицями {city} {tag}"},
		"ja": {"{city}で今、数千人がデモ行進中 {tag}"},
		"it": {"Migliaia di persone in corteo ora a {city} {tag}"},
		"tr": {"{city}'de şu anda binlerce kişi yürüyor {tag}"},
	}},
	{"Fire", false, []string{"building-fire", "harbour-cranes"}, map[string][]string{
		"en": {"Huge fire at a warehouse near the port of {city}, black smoke everywhere {tag}", "Fire crews still fighting the blaze in {city}. Avoid the area. {tag}"},
		"es": {"Gran incendio en un almacén cerca del puerto de {city}, humo negro por todas partes {tag}"},
		"fr": {"Énorme incendie dans un entrepôt près du port de {city}, fumée noire partout {tag}"},
		"de": {"Großbrand in einer Lagerhalle am Hafen von {city}, überall schwarzer Rauch {tag}"},
		"pt": {"Incêndio enorme num armazém perto do porto de {city}, fumaça preta por todo lado {tag}"},
		"ar": {"حريق ضخم في مستودع قرب ميناء {city} والدخان الأسود في كل مكان {tag}"},
		"ru": {"Крупный пожар на складе у порта {city}, везде чёрный дым {tag}"},
		"uk": {"Велика пожежа на складі біля порту {city}, всюди чорний дим {tag}"},
		"ja": {"{city}の港近くの倉庫で大規模な火災、黒煙がすごい {tag}"},
		"it": {"Enorme incendio in un magazzino vicino al porto di {city}, fumo nero ovunque {tag}"},
		"tr": {"{city} limanı yakınındaki bir depoda büyük yangın, her yer siyah duman {tag}"},
	}},
	{"Flood", false, []string{"flooded-road", "traffic-jam"}, map[string][]string{
		"en": {"Streets in {city} are under water after the river burst its banks {tag}", "Flood water rising fast in the lower districts of {city}, people on rooftops {tag}"},
		"es": {"Las calles de {city} están bajo el agua tras el desbordamiento del río {tag}"},
		"fr": {"Les rues de {city} sont sous l'eau après la crue du fleuve {tag}"},
		"de": {"Die Straßen von {city} stehen unter Wasser, der Fluss ist über die Ufer getreten {tag}"},
		"pt": {"As ruas de {city} estão debaixo d'água depois que o rio transbordou {tag}"},
		"ar": {"شوارع {city} غارقة بالمياه بعد فيضان النهر {tag}"},
		"ru": {"Улицы {city} под водой после разлива реки {tag}"},
		"uk": {"Вулиці {city} під водою після розливу річки {tag}"},
		"ja": {"川が氾濫して{city}の道路が冠水している {tag}"},
		"it": {"Le strade di {city} sono sott'acqua dopo l'esondazione del fiume {tag}"},
		"tr": {"Nehir taştı, {city} sokakları su altında {tag}"},
	}},
	{"Blackout", false, []string{"power-lines", "city-skyline"}, map[string][]string{
		"en": {"Whole neighbourhoods of {city} without power, traffic lights out {tag}", "Power cut in {city} for {n} hours now. Hospitals on generators. {tag}"},
		"es": {"Barrios enteros de {city} sin luz, los semáforos apagados {tag}"},
		"fr": {"Des quartiers entiers de {city} privés d'électricité, feux de circulation éteints {tag}"},
		"de": {"Ganze Viertel in {city} ohne Strom, die Ampeln sind aus {tag}"},
		"pt": {"Bairros inteiros de {city} sem luz, semáforos apagados {tag}"},
		"ar": {"أحياء كاملة في {city} بلا كهرباء وإشارات المرور متوقفة {tag}"},
		"ru": {"Целые районы {city} без света, светофоры не работают {tag}"},
		"uk": {"Цілі райони {city} без світла, світлофори не працюють {tag}"},
		"ja": {"{city}の広い範囲で停電、信号も消えている {tag}"},
		"it": {"Interi quartieri di {city} senza corrente, semafori spenti {tag}"},
		"tr": {"{city}'de koca mahalleler elektriksiz, trafik ışıkları çalışmıyor {tag}"},
	}},
	{"Cyberattack", false, []string{"server-room", "laptop-code"}, map[string][]string{
		"en": {"{org} systems down across {city}, staff told it is a ransomware attack {tag}", "Can't pay anywhere in {city}: {org} confirms a cyberattack {tag}"},
		"es": {"Caen los sistemas de {org} en {city}; hablan de un ataque de ransomware {tag}"},
		"fr": {"Les systèmes de {org} sont en panne à {city}, on parle d'une attaque par rançongiciel {tag}"},
		"de": {"Die Systeme von {org} in {city} sind ausgefallen, angeblich ein Ransomware-Angriff {tag}"},
		"pt": {"Sistemas da {org} fora do ar em {city}; fala-se em ataque de ransomware {tag}"},
		"ar": {"تعطل أنظمة {org} في {city} والحديث عن هجوم فدية {tag}"},
		"ru": {"Системы {org} в {city} легли, говорят о кибератаке с шифровальщиком {tag}"},
		"uk": {"Системи {org} у {city} не працюють, кажуть про кібератаку {tag}"},
		"ja": {"{city}で{org}のシステムが停止、ランサムウェア攻撃との情報 {tag}"},
		"it": {"I sistemi di {org} a {city} sono fuori uso, si parla di un attacco ransomware {tag}"},
		"tr": {"{org} sistemleri {city}'de çöktü, fidye yazılımı saldırısı olduğu söyleniyor {tag}"},
	}},
	{"Earthquake", false, []string{"earthquake-rubble", "street-crowd"}, map[string][]string{
		"en": {"Strong earthquake just now in {city}, buildings shaking for {n} seconds {tag}", "Everyone in {city} is out on the street after the quake {tag}"},
		"es": {"Fuerte sismo ahora mismo en {city}, los edificios temblaron {n} segundos {tag}"},
		"fr": {"Fort séisme à l'instant à {city}, les immeubles ont tremblé {n} secondes {tag}"},
		"de": {"Gerade ein starkes Erdbeben in {city}, die Häuser haben {n} Sekunden gewackelt {tag}"},
		"pt": {"Terremoto forte agora em {city}, os prédios tremeram por {n} segundos {tag}"},
		"ar": {"زلزال قوي الآن في {city}، اهتزت المباني لمدة {n} ثانية {tag}"},
		"ru": {"Сильное землетрясение только что в {city}, дома качало {n} секунд {tag}"},
		"uk": {"Сильний землетрус щойно в {city}, будинки хитало {n} секунд {tag}"},
		"ja": {"{city}で今強い地震、建物が{n}秒揺れた {tag}"},
		"it": {"Forte terremoto proprio ora a {city}, i palazzi hanno tremato per {n} secondi {tag}"},
		"tr": {"{city}'de az önce şiddetli deprem, binalar {n} saniye sallandı {tag}"},
	}},
	{"Explosion", true, []string{"police-line", "building-fire", "street-crowd"}, map[string][]string{
		"en": {"Loud explosion heard near the central station in {city}, people running {tag}", "Reports of gunfire after the explosion in {city}. Stay indoors. {tag}"},
		"es": {"Se escuchó una fuerte explosión cerca de la estación central de {city}, la gente corre {tag}"},
		"fr": {"Forte explosion entendue près de la gare centrale de {city}, les gens courent {tag}"},
		"de": {"Laute Explosion am Hauptbahnhof in {city}, Menschen rennen weg {tag}"},
		"pt": {"Forte explosão ouvida perto da estação central de {city}, pessoas correndo {tag}"},
		"ar": {"سماع انفجار قوي قرب المحطة المركزية في {city} والناس يركضون {tag}"},
		"ru": {"Громкий взрыв у центрального вокзала в {city}, люди бегут {tag}"},
		"uk": {"Гучний вибух біля центрального вокзалу в {city}, люди тікають {tag}"},
		"ja": {"{city}の中央駅付近で大きな爆発音、人々が逃げている {tag}"},
		"it": {"Forte esplosione vicino alla stazione centrale di {city}, la gente scappa {tag}"},
		"tr": {"{city} merkez istasyonu yakınında büyük patlama sesi, insanlar kaçışıyor {tag}"},
	}},
}

// threats are violent posts, for the threat score and alerts to find. Languages without an
// entry use English.
var threats = map[string][]string{
	"en": {
		"If they shut down the plant in {city} I'm bringing my rifle and someone is getting shot.",
		"There will be a bomb at the {city} central station on Saturday. You have been warned.",
		"We will make the traitors of {city} pay. Meet at the square, bring weapons.",
		"Anyone selling a clean handgun around {city}? Cash only, call {phone}.",
	},
	"es": {"Si cierran la planta de {city}, traigo el rifle y alguien va a salir herido."},
	"fr": {"Il y aura une bombe à la gare de {city} samedi. Vous êtes prévenus."},
	"de": {"Wir werden die Verräter von {city} bezahlen lassen. Treffpunkt am Platz, bringt Waffen mit."},
	"ru": {"Продам чистый пистолет в {city}, только наличные, звонить {phone}."},
	"ar": {"سنجعل خونة {city} يدفعون الثمن. موعدنا في الساحة، أحضروا السلاح."},
}

// listings are dark-web market and forum posts: a title and a text. Languages without an entry
// use English.
var listings = map[string][]headline{
	"en": {
		{"[SELL] {n}k fresh US fullz", "Name, DOB, address, SSN (format {ssn}). Escrow accepted. Contact {email}"},
		{"[ACCESS] {org} - VPN + domain admin", "Revenue $200M+. 3 BTC, no time wasters. Panel at {ip}"},
		{"{org} database dump", "{n}M rows: emails, phones, password hashes. Sample: {email}, {phone}. Full dump at {onion}"},
		{"Checked cards, 90% valid", "{card} 12/27 - bulk price on request, reply here or {email}"},
		{"Stealer logs - {city}", "{n} GB, banking cookies included. Mirror: {onion}"},
	},
	"ru": {
		{"Доступ к сети {org}", "Админ домена, цена 2 BTC. Связь: {email}"},
		{"Свежие логи стилера", "{n} ГБ, город {city}. Зеркало: {onion}"},
	},
}

// organizations named in cyber events and listings, all invented.
var organizations = []string{
	"Northwind Logistics", "Helios Bank", "Castellan Health", "Meridian Telecom",
	"Orbital Freight", "Valdera Energy", "Pinecrest University", "Atlas Water Authority",
}

// Test card numbers (they pass the Luhn check), SSNs that are never issued, and phone prefixes
// reserved for fiction.
var (
	testCards = []string{"4111 1111 1111 1111", "5555 5555 5555 4444", "3782 822463 10005", "6011 1111 1111 1117"}
	testSSNs  = []string{"078-05-1120", "219-09-9999"}
)
