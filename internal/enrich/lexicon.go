package enrich

// The threat lexicon: weighted terms per category, in English, Spanish, French, German,
// Portuguese, Russian and Arabic. docs/threat-score.md explains the weights; in short, 35-40 is
// an explicit threat or unmistakable phrase, 20-25 a strong term with few innocent uses, 10-15 a
// term that also appears in news and ordinary talk. Words with common innocent senses on their own
// ("kill", "shoot", "fire", "attack", "exploit", "credentials", "address") only count inside a
// phrase. Terms are written as
// people write them; they are folded like post text (case and accents) when the lexicon loads.
var lexicon = map[category][]weightedTerm{
	violence: {
		{"kill you", 40}, {"kill him", 40}, {"kill her", 40}, {"kill them", 40}, {"kill them all", 40},
		{"kill everyone", 40}, {"going to kill", 35}, {"gonna kill", 35}, {"i will kill", 40},
		{"shoot up the", 40}, {"open fire on", 35}, {"blow up the", 35}, {"bomb threat", 35},
		{"mass shooting", 25}, {"school shooting", 25}, {"shot dead", 25}, {"gunman", 20},
		{"murder", 20}, {"murdered", 20}, {"massacre", 25}, {"behead", 35}, {"beheading", 35},
		{"stabbing", 20}, {"stabbed", 20}, {"hostage", 20}, {"hostages", 20}, {"lynch", 25},
		{"slaughter", 20}, {"terror attack", 30}, {"terrorist attack", 30}, {"car bomb", 35},
		{"kill list", 40}, {"hit list", 30}, {"death threat", 30}, {"death threats", 30},
		// Spanish, Portuguese
		{"te voy a matar", 40}, {"vou te matar", 40}, {"los voy a matar", 40}, {"asesinato", 20},
		{"asesinada", 20}, {"asesinado", 20}, {"masacre", 25}, {"tiroteo", 25}, {"atentado", 30}, {"rehenes", 20},
		{"coche bomba", 35}, {"carro bomba", 35}, {"chacina", 25}, {"assassinato", 20}, {"tiroteio", 25},
		// French
		{"je vais te tuer", 40}, {"je vais les tuer", 40}, {"meurtre", 20}, {"fusillade", 25},
		{"attentat", 30}, {"otages", 20}, {"voiture piegee", 35},
		// German
		{"ich bringe dich um", 40}, {"ich werde dich toten", 40}, {"mord", 20}, {"anschlag", 25},
		{"amoklauf", 30}, {"geiseln", 20}, {"autobombe", 35},
		// Russian, Arabic
		{"я тебя убью", 40}, {"убийство", 20}, {"теракт", 30}, {"заложники", 20}, {"расстрел", 25},
		{"سأقتلك", 40}, {"تفجير", 30}, {"مجزرة", 25}, {"رهائن", 20},
	},
	weapons: {
		{"ak 47", 20}, {"ak47", 20}, {"ar 15", 20}, {"ar15", 20}, {"glock", 15}, {"assault rifle", 20},
		{"rifle", 10}, {"handgun", 10}, {"shotgun", 10}, {"ammunition", 10}, {"ammo", 10},
		{"ghost gun", 30}, {"3d printed gun", 30}, {"auto sear", 30}, {"glock switch", 30},
		{"silencer", 15}, {"suppressor", 10}, {"explosives", 25}, {"pipe bomb", 40}, {"ied", 30},
		{"detonator", 30}, {"tatp", 40}, {"semtex", 35}, {"c4 explosive", 35}, {"molotov", 25},
		{"nerve agent", 35}, {"ricin", 35}, {"anthrax", 30}, {"grenade", 20}, {"grenades", 20},
		{"untraceable gun", 30}, {"guns for sale", 30}, {"weapons for sale", 30},
		{"fusil", 10}, {"arma de fuego", 15}, {"explosivos", 25}, {"granada", 15},
		{"explosifs", 25}, {"arme a feu", 15}, {"sprengstoff", 25}, {"schusswaffe", 15},
		{"взрывчатка", 25}, {"автомат калашникова", 20}, {"оружие", 10}, {"متفجرات", 25}, {"عبوة ناسفة", 35},
	},
	extremism: {
		{"jihad", 25}, {"caliphate", 25}, {"isis", 20}, {"daesh", 25}, {"al qaeda", 25},
		{"martyrdom operation", 40}, {"suicide bomber", 35}, {"kill the infidels", 40}, {"infidels", 15},
		{"white power", 30}, {"race war", 35}, {"heil hitler", 35}, {"sieg heil", 35}, {"1488", 30},
		{"great replacement", 25}, {"accelerationism", 25}, {"day of the rope", 40}, {"zog", 20},
		{"white genocide", 25}, {"ethnic cleansing", 25}, {"holy war", 25}, {"lone wolf", 15},
		{"neo nazi", 20}, {"atomwaffen", 35},
		{"yihad", 25}, {"califato", 25}, {"djihad", 25}, {"califat", 25}, {"dschihad", 25},
		{"kalifat", 25}, {"джихад", 25}, {"халифат", 25}, {"جهاد", 25}, {"الخلافة", 25}, {"الدولة الإسلامية", 25},
	},
	cyber: {
		{"ransomware", 30}, {"ransom note", 30}, {"data breach", 20}, {"database dump", 30},
		{"db dump", 30}, {"leaked database", 30}, {"combolist", 30}, {"combo list", 30},
		{"stolen credentials", 30}, {"leaked credentials", 30}, {"credentials for sale", 35}, {"infostealer", 30}, {"stealer logs", 35},
		{"botnet", 25}, {"ddos", 20}, {"ddos attack", 25}, {"zero day", 25}, {"0day", 30},
		{"exploit kit", 30}, {"exploit for sale", 35}, {"working exploit", 25}, {"remote code execution", 20}, {"sql injection", 20}, {"phishing kit", 30},
		{"carding", 30}, {"cvv", 20}, {"fullz", 35}, {"bank logs", 30}, {"initial access", 25},
		{"rdp access", 30}, {"vpn access", 20}, {"access for sale", 35}, {"lockbit", 30},
		{"blackcat", 20}, {"alphv", 30}, {"cl0p", 30}, {"ransom demand", 30}, {"encrypted your files", 40},
		{"leaked passwords", 30}, {"password dump", 30}, {"hacked accounts", 25}, {"malware", 15},
		{"fuga de datos", 20}, {"filtracion de datos", 20}, {"fuite de donnees", 20},
		{"datenleck", 20}, {"vazamento de dados", 20}, {"утечка данных", 20}, {"слив базы", 30},
		{"вымогатель", 25}, {"шифровальщик", 30},
	},
	selfHarm: {
		{"kill myself", 40}, {"killing myself", 40}, {"end my life", 40}, {"want to die", 35},
		{"wanna die", 30}, {"suicide", 20}, {"suicidal", 30}, {"self harm", 30}, {"cut myself", 35},
		{"cutting myself", 35}, {"overdose", 15}, {"no reason to live", 35}, {"better off dead", 30},
		{"quiero morir", 35}, {"suicidarme", 40}, {"matarme", 35}, {"quero morrer", 35}, {"me matar", 35},
		{"me suicider", 40}, {"envie de mourir", 35}, {"ich will sterben", 35}, {"mich umbringen", 40},
		{"selbstmord", 20}, {"suizid", 20}, {"хочу умереть", 35}, {"покончить с собой", 40},
		{"суицид", 20}, {"انتحار", 20},
	},
	doxxing: {
		{"dox", 30}, {"doxx", 30}, {"doxxed", 30}, {"doxed", 30}, {"doxxing", 30}, {"doxing", 30},
		{"home address", 20}, {"social security number", 20}, {"date of birth", 10},
		{"mother's maiden name", 25}, {"driver's license number", 20}, {"passport number", 20},
		{"leaked address", 30}, {"swatting", 35}, {"swat him", 40},
		{"swat her", 40}, {"direccion de su casa", 20}, {"adresse personnelle", 20},
		{"wohnadresse", 20}, {"endereço residencial", 20}, {"домашний адрес", 20}, {"деанон", 30},
	},
}

// Entities raise the score too: an SSN or a card number in a post is personal data on display.
const (
	ssnWeight        = 30
	creditCardWeight = 20
	// manyEmails is how many e-mail addresses in one post look like a dump of accounts.
	manyEmails      = 10
	manyEmailWeight = 20
)
