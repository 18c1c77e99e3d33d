package enrich

// The threat lexicon, in English, Spanish, French, German, Portuguese, Russian, Ukrainian and
// Arabic. Each group gives its terms a role in the constructions threat.go scores (a harm word,
// a place, a time, an offer to sell ...) and, for the roles whose terms differ in strength, a
// weight. docs/threat-score.md explains the roles and the weights. Terms are written as people
// write them; they are folded like post text (case, accents, apostrophes) when the lexicon loads,
// so "you'll" is the tokens "you ll" and "вб'ю" is "вб ю". Verbs are listed in the forms a
// threat uses (infinitive, present, future), not the past tense news is written in.
var lexicon = []group{
	// Violence: harm words. Figurative ones have an everyday sense ("the bomb", "killing it",
	// "shoot a scene") and are dropped in a music, film, sport, game, photo or drill context.
	{harm, 15, figurative, []string{
		"bomb", "bombs", "explode", "explodes", "blow up", "goes off", "go off", "shoot up",
		"bomba", "bombas", "explota",
		"bombe", "bombes", "faire sauter", "ca pete", "exploser",
		"explodiert", "geht hoch", "in die luft jagen", "in die luft sprengen",
		"explodir",
		"бомба", "бомбу", "взрыв", "взрыва",
		"вибух",
		"قنبلة", "انفجار", "تفجير",
	}},
	{harm, 10, figurative, []string{
		"kill", "shoot", "all die", "gonna die", "going to die", "ll die", "burn", "open fire",
		"matar", "disparar", "morir", "quemar", "atacar", "balazo", "volar por los aires", "hacer volar",
		"tuer", "tirer sur", "crever", "bruler", "mourir",
		"toten", "schiessen", "erschiessen", "sterben", "anzunden", "zunden", "bist tot", "seid tot",
		"atirar", "morrer", "tacar fogo", "queimar",
		"убить", "стрелять", "стрельбу", "стрельба", "стрельбы",
		"вбити", "стріляти", "стрілянину", "стрілянина",
		"اطلق النار", "النار",
	}},
	{harm, 15, 0, []string{
		"bomb threat", "bomb threats", "death threat", "death threats", "get shot", "getting shot", "get hurt", "getting hurt", "salir herido", "sair ferido",
		"stab", "behead", "massacre", "mass shooting", "slaughter", "shooting spree",
		"apunalar", "masacre", "degollar", "tiroteo",
		"egorger", "poignarder", "tuerie", "attentat",
		"abstechen", "amoklauf", "anschlag", "blutbad",
		"esfaquear", "chacina", "atentado", "nicht uberleben",
		"зарезать", "резня", "теракт", "расстрел",
		"зарізати", "різанина", "розстріл",
		"مجزرة", "ذبح", "عملية تفجير", "مفخخة", "سيارة مفخخة", "car bomb", "coche bomba", "voiture piegee",
		"autobombe", "carro bomba",
	}},
	// Future forms that carry their own intent: the verb alone says "I will" or "we will".
	{harm, 15, future, []string{
		"i ll kill", "i ll shoot", "i ll stab", "i ll burn", "ima shoot", "imma shoot",
		"estallara", "explotara",
		"erschiesse", "steche",
		"расстреляю", "расстреляем", "перестреляю", "застрелю", "убью", "убьем", "зарежу", "зарежем",
		"сдохнете", "умрете", "здохнете", "помрете", "взорву", "взорвем", "подожгу", "подожжем", "сожгу", "сожжем",
		"розстріляю", "розстріляємо", "вб ю", "вб ємо", "заріжу", "заріжемо",
		"підірву", "підірвемо", "спалю", "спалимо",
		"ساقتل", "سنقتل", "ساطلق النار", "سنطلق النار", "سافجر", "سنفجر", "سيفجر", "ساذبح", "سنذبح",
		"ساحرق", "سنحرق", "ستموتون", "ستموت", "سنقتلكم", "ستنفجر", "взорвется", "вибухне", "explodira",
	}},
	{harm, 10, future | figurative, []string{"will be dead", "will die"}},
	// Complete threats: they count in any context.
	{threatPhrase, 40, 0, []string{
		"kill you", "kill him", "kill her", "kill them", "kill them all", "kill everyone", "kill you all",
		"shoot you", "stab you", "i will kill", "i am going to kill", "i m going to kill",
		"te voy a matar", "los voy a matar", "te vamos a matar", "vou te matar", "vamos te matar",
		"je vais te tuer", "je vais les tuer", "on va te tuer", "je vais te planter", "lo voy a matar", "la voy a matar", "lo vamos a matar",
		"ich bring dich um", "ich bringe dich um", "wir bringen dich um", "ich werde dich toten",
		"я тебя убью", "мы тебя убьем", "я тебе вб ю", "ми тебе вб ємо",
		"ساقتلك", "سنقتلك",
	}},
	{threatPhrase, 30, 0, []string{
		"nobody walks out", "no one walks out", "nobody gets out alive", "no one will leave alive",
		"nobody leaves alive", "placed a device", "planted a device", "planted a bomb", "placed a bomb",
		"nadie va a salir vivo", "nadie sale vivo", "pusimos un artefacto", "puse una bomba", "pusimos una bomba",
		"artefacto explosivo", "engin explosif", "j ai pose une bombe", "personne ne sortira vivant",
		"vous serez tous morts", "blut fliessen", "bombe deponiert", "bombe gelegt", "ihr werdet alle sterben",
		"ninguem sai vivo", "ninguem vai sair vivo", "coloquei um explosivo", "coloquei uma bomba",
		"никто не уйдет живым", "никто не выйдет живым", "заложил бомбу", "заложили бомбу",
		"ніхто не вийде живим", "заклав бомбу", "заклали бомбу",
		"لن يخرج احد حيا", "وضعت عبوة", "وضعنا عبوة", "وضعت قنبلة",
		"blood will flow",
		// Calls to arms: a crowd told to come armed.
		"bring weapons", "bring your weapons", "bring guns", "bring your guns", "come armed",
		"traigan armas", "vengan armados", "apportez des armes", "apportez vos armes", "venez armes",
		"bringt waffen mit", "bringt eure waffen mit", "kommt bewaffnet", "tragam armas", "venham armados",
		"берите оружие", "приходите с оружием", "беріть зброю", "приходьте зі зброєю",
		"احضروا السلاح", "احضروا اسلحتكم", "تعالوا مسلحين",
	}},
	// Violence: what makes a harm word a threat when it comes near it.
	{intent, 0, 0, []string{
		"someone should", "somebody should", "alguien deberia", "quelqu un devrait", "jemand sollte",
		"alguem deveria", "кто то должен", "хтось має",
		"i will", "i ll", "im going to", "i m going to", "i am going to", "going to", "gonna", "ima", "imma",
		"we will", "we ll", "we are going to", "we re going to", "you will", "you ll", "you are going to",
		"you re going to", "there will be", "there s a", "there is a", "bringing my", "will be",
		"voy a", "vamos a", "van a", "vais a", "vas a", "va a", "hay una", "habra", "va a haber",
		"je vais", "on va", "nous allons", "vous allez", "il y aura", "va y avoir", "je compte",
		"ich werde", "wir werden", "ihr werdet", "du wirst", "werde", "wird", "gibt s", "es gibt",
		"vou", "vamos", "vao", "vai ter", "vai", "vou usar",
		"будет", "устрою", "буде", "влаштую",
		"ستكون", "سيكون", "ساستخدمها", "سنجعل",
		// claims of having placed a device
		"placed", "planted", "deponiert", "versteckt", "pose", "puse", "coloquei", "colocamos", "заложил", "заложили", "заклав", "заклали", "وضعت",
	}},
	{target, 0, 0, []string{
		// places
		"school", "high school", "class", "campus", "university", "college", "station", "metro",
		"subway", "airport", "flight", "plane", "mall", "food court", "market", "church", "mosque",
		"synagogue", "temple", "stadium", "arena", "parade", "rally", "festival", "office", "city hall",
		"parliament", "embassy", "hospital", "motel", "hotel", "house", "home", "courthouse", "court",
		"library", "police station", "concert hall", "club", "bar", "train", "bus", "crowd",
		"square", "town square", "the square", "plant", "factory", "warehouse", "planta", "fabrica", "usine", "fabrik", "werk",
		"escuela", "instituto", "colegio", "clase", "universidad", "estacion", "aeropuerto",
		"centro comercial", "mercado", "iglesia", "mezquita", "estadio", "plaza", "comisaria", "alcaldia", "casa",
		"oficina", "biblioteca", "embajada", "tribunal", "ayuntamiento",
		"ecole", "lycee", "fac", "gare", "aeroport", "marche", "eglise", "mosquee",
		"stade", "mairie", "prefecture", "maison", "centre commercial", "bureau", "ambassade", "hopital",
		"bibliotheque", "commissariat",
		"schule", "gesamtschule", "uni", "bahnhof", "hauptbahnhof", "flughafen", "einkaufszentrum", "markt",
		"weihnachtsmarkt", "platz", "kirche", "moschee", "synagoge", "stadion", "rathaus", "haus", "buro", "botschaft",
		"krankenhaus", "gericht", "polizeiwache", "bibliothek",
		"escola", "faculdade", "estacao", "aeroporto", "shopping", "igreja",
		"prefeitura", "escritorio", "embaixada", "delegacia",
		"школе", "школу", "универе", "вокзале", "метро", "аэропорту", "торговом центре", "церкви",
		"мечети", "матче", "стадионе", "администрации", "дом", "уроке", "университет", "университете",
		"школа", "посольство", "больнице", "офис", "офисе", "суд",
		"школі", "універі", "вокзалі", "торговому центрі", "матчі", "міськради", "хату", "університет",
		"лікарні", "офіс",
		"المدرسة", "الساحة", "الجامعة", "المحطة", "محطة", "المترو", "المطار", "المركز التجاري", "المسجد",
		"الكنيسة", "الملعب", "المباراة", "البلدية", "بيته", "السفارة", "المستشفى", "المحكمة", "المكتب",
		// people
		"everyone", "everybody", "all of you", "you all", "y all", "ex", "teacher", "governor", "mayor",
		"president", "judge", "cop", "cops", "your kids", "your family", "boss", "manager", "neighbor",
		"neighbour", "wife", "husband",
		"todos", "todo el mundo", "profe", "profesor", "concejal", "juez", "familia", "jefe", "vecino",
		"tout le monde", "prof", "juge", "maire",
		"alle", "allen", "lehrer", "burgermeister", "kinder",
		"todo mundo", "professor", "vereador", "juiz", "chefe", "vizinho",
		"всех", "училку", "учителя", "семьей", "семьи", "начальника", "соседа",
		"всіх", "вчительку", "вчителя", "сім єю",
		"الجميع", "المعلم", "عائلته",
	}},
	// Object pronouns right by a harm word: "shoot you", "te voy a matar", "ich steche ihn ab".
	{object, 0, 0, []string{
		"you", "him", "her", "them", "u", "te", "toi", "dich", "ihn", "euch",
		"тебя", "его", "вас", "тебе", "його",
	}},
	{selfObject, 0, 0, []string{"me", "mich", "меня", "мене"}},
	{when, 0, 0, []string{
		"today", "tonight", "tomorrow", "this weekend", "next week", "monday", "tuesday", "wednesday",
		"thursday", "friday", "saturday", "sunday", "noon", "midnight",
		"manana", "esta noche", "hoy", "lunes", "martes", "miercoles", "jueves", "viernes", "sabado",
		"domingo", "a las", "mediodia", "semana que viene",
		"demain", "ce soir", "lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche",
		"midi", "minuit", "semaine prochaine",
		"morgen", "heute abend", "heute nacht", "montag", "dienstag", "mittwoch", "donnerstag",
		"freitag", "samstag", "sonntag", "samstagabend", "freitagabend", "nachste woche", "uhr", "feiertag",
		"amanha", "hoje a noite", "segunda", "terca", "quarta", "quinta", "sexta", "sexta feira",
		"завтра", "сегодня", "понедельник", "вторник", "среду", "четверг", "пятницу", "субботу",
		"воскресенье", "скоро",
		"сьогодні", "понеділок", "вівторок", "середу", "четвер", "п ятницю", "суботу", "неділю",
		"next", "prochain", "prochaine", "proximo", "proxima", "nachsten", "day", "dia",
		"غدا", "الليلة", "السبت", "الاحد", "الاثنين", "الثلاثاء", "الاربعاء", "الخميس", "الجمعة",
		"الساعة", "قريبا",
	}},
	{warning, 0, 0, []string{
		"you have been warned", "you ve been warned", "you were warned", "been warned", "not a joke",
		"last warning", "final warning", "stay home", "dont come", "don t come", "do not come", "evacuate",
		"remember the name", "didnt warn", "didn t warn", "count on it", "i know where you live",
		"if you value your life", "evacuate now", "get out", "get out while you can",
		"desalojar", "desalojen", "evacuen", "evacuez", "evakuiert", "evakuieren", "evacuem", "эвакуируйтесь", "евакуюйтеся", "اخلوا",
		"avisados", "quedais avisados", "les aviso", "que nadie salga", "no vengan", "se donde vives",
		"se donde trabajas", "ultimo aviso",
		"vous etes prevenus", "dernier avertissement", "restez chez vous", "je sais ou tu habites",
		"preparez vos cercueils",
		"ihr wurdet gewarnt", "bleibt zuhause", "ich mein s ernst", "ich weiss wo du wohnst", "seid bereit",
		"letzte warnung",
		"voces foram avisados", "nao venham", "to avisando", "quem avisa amigo e", "sei onde tu mora",
		"sei onde voce mora",
		"вы предупреждены", "последнее предупреждение", "не приходите", "уезжайте", "знаю где ты живешь",
		"вас попереджено", "останнє попередження", "не приходьте", "тікайте", "знаю де ти живеш",
		"تم تحذيركم", "اخر تحذير", "لا تاتوا", "غادروا", "اعرف اين تسكن",
	}},

	// Weapons.
	{weapon, 40, 0, []string{"pipe bomb", "tatp", "pipe bombs"}},
	{weapon, 30, 0, []string{
		"detonators", "detonator", "ghost gun", "auto sear", "glock switch", "untraceable gun", "ied",
		"detonadores", "detonateurs", "zunder", "детонаторы", "детонатори", "صواعق",
		"semtex", "c4 explosive", "nerve agent", "ricin", "anthrax",
	}},
	{weapon, 25, 0, []string{
		"explosives", "dynamite", "explosivos", "explosifs", "sprengstoff", "dinamite", "тротил",
		"взрывчатка", "вибухівка", "متفجرات", "عبوة ناسفة", "molotov",
	}},
	{weapon, 20, 0, []string{
		"ak 47", "ak47", "ar 15", "ar15", "assault rifle", "grenade", "grenades", "kalash", "kalashnikov",
		"cuerno de chivo", "cuernos de chivo", "granadas", "fuzil", "fusil d assaut", "kalachnikov",
		"калашникова", "автомат", "гранаты", "гранати", "كلاشنكوف", "قنابل يدوية", "c4",
	}},
	{weapon, 15, 0, []string{
		"glock", "glocks", "pistol", "pistols", "handgun", "handguns", "guns", "uzi", "pistola", "pistolet", "pistole", "пистолет",
		"пістолет", "пм", "مسدس", "غلوك", "silencer",
	}},
	{weapon, 10, 0, []string{
		"gun", "rifle", "shotgun", "ammo", "ammunition", "rounds", "rds", "9mm", "mags", "suppressor",
		"arma", "rifles", "escopeta", "municion", "cargadores", "fusil", "carabine", "chargeurs", "munitions",
		"gewehr", "munition", "waffe", "municao", "carabina", "espingarda",
		"ружье", "патроны", "оружие", "рушницю", "рушниця", "набої", "зброя", "боєприпасів",
		"بندقية", "ذخيرة", "البنادق", "سلاح",
	}},
	// Selling, in any category: weapons, data, access.
	{offer, 0, 0, []string{
		"selling", "sell", "for sale", "wts", "available", "in stock", "price", "vendor", "shipping", "ships",
		"vendo", "vendemos", "venta", "se vende", "envios", "precio",
		"vends", "vente", "a vendre", "livraison", "prix",
		"verkaufe", "zu verkaufen", "verkauf", "versand", "preis",
		"vende", "entrega", "envio",
		"продам", "продаю", "продажа", "цена", "отправка",
		"продаж", "ціна", "відправка",
		"fresh", "sample", "bulk price", "price on request", "mirror", "зеркало", "дзеркало", "muestra", "echantillon", "link in my channel", "sur mon canal", "en mi canal",
		"usd", "eur", "reais", "rublos", "руб", "грн", "свежая", "свіжа", "lista nova",
		"للبيع", "متوفر", "بيع", "السعر", "شحن", "التوصيل",
	}},
	{illicit, 0, 0, []string{
		"no serial", "untraceable", "no paperwork", "no questions", "discreet", "escrow", "btc", "xmr",
		"monero", "bitcoin", "crypto", "no papers", "clean", "cash only", "только наличные", "nur bar", "so dinheiro", "vouched", "dm on tele", "telegram", "tg", "no time wasters",
		"sin numero de serie", "sin papeles", "cripto", "solo efectivo", "pago en cripto",
		"pas de questions", "discrete", "paiement btc", "main propre",
		"ohne seriennummer", "diskret", "nur bitcoin",
		"sem registro", "so pix", "chama no zap",
		"без номера", "без лишних вопросов", "крипта", "закладкой", "только крипта",
		"без зайвих питань", "тільки крипта",
		"بدون رقم تسلسلي", "شحن سري", "بالبيتكوين",
	}},
	// A lawful or harmless sale: the offer does not count for weapons.
	{legal, 0, 0, []string{
		"license", "licence", "licensed", "permit", "hunting", "airsoft", "replica", "toy", "gift", "shaped",
		"licencia", "aire comprimido", "tiro deportivo", "permis", "chasse", "armurier",
		"waffenbesitzkarte", "jagd", "schutzenverein", "licenca", "pressao", "лицензии", "охотничье",
		"пневматики", "ліцензії", "мисливська", "صيد",
	}},

	// Cyber: stolen data and access for sale, extortion.
	{goods, 35, 0, []string{"fullz", "stealer logs", "логи стилера", "логи стілера", "checked cards", "encrypted your files", "encrypted all your files"}},
	{goods, 30, 0, []string{
		"слив", "слив базы", "злив", "злив бази", "combo list", "combolist", "database dump", "db dump", "leaked database", "bank logs",
		"initial access", "rdp access", "vpn access", "access to a", "painel de consulta",
		"acceso rdp", "acceso vpn", "acces vpn", "acces rdp", "zugang zum netzwerk", "acesso rdp",
		"доступ к сети", "доступ до мережі", "صلاحية دخول", "exfiltrated",
	}},
	{goods, 20, 0, []string{
		"email pass", "cvv", "tarjetas clonadas", "logs bancaires", "cartoes clonados", "фуллзы", "фулзи",
	}},
	// Words that news and breach notices use too: they count only when offered.
	{goods, 20, offered, []string{
		"dump", "database", "credentials", "logins", "leaking", "leaked", "customer records", "customer data",
		"base de datos", "filtracion", "base de donnees", "fuite", "datenbank", "kundendaten",
		"zugangsdaten", "leak", "banco de dados", "vazou", "logins e senhas",
		"база", "базы", "логинов", "бази", "логінів",
		"قاعدة بيانات", "تسريب",
	}},
	{goods, 15, 0, []string{"admin du domaine", "domain admin", "admin de dominio", "домен админ", "домен адмін", "ادمن دومين"}},
	{dataKind, 0, 0, []string{
		"ssn", "ssns", "dob", "date of birth", "passwords", "password", "pass", "iban", "passport", "cpf",
		"names", "addresses", "billing", "contrasenas", "rut", "correo", "telefono", "mot de passe",
		"numero de secu", "date de naissance", "passworter", "senhas", "nome da mae",
		"паролей", "паспорт", "фио", "телефон", "паролів", "піб", "رقم الهوية", "كلمات المرور", "كلمات السر",
	}},
	{volume, 0, 0, []string{
		"rows", "records", "lines", "million", "millions", "registros", "millones", "mil", "mio",
		"milhoes", "млн", "строк", "тис", "рядків", "مليون", "سجل",
	}},
	{goods, 30, 0, []string{
		"ransomware", "ransom note", "ransom demand", "stealer", "infostealer", "botnet", "carding",
		"lockbit", "alphv", "cl0p", "шифровальщик", "стилер", "стілер",
	}},
	// Technical terms that security advisories use too.
	{tech, 15, 0, []string{
		"zero day", "0day", "exploit kit", "exploit for sale", "working exploit", "phishing kit",
		"remote code execution", "sql injection", "ddos", "malware", "data breach", "blackcat",
		"fuga de datos", "fuite de donnees", "datenleck", "vazamento de dados", "утечка данных", "витік даних",
		"ejecucion remota de codigo", "execucao remota de codigo", "execution de code a distance",
		"remotecodeausfuhrung", "удаленное выполнение кода", "віддалене виконання коду",
	}},

	// Extremism.
	{extremist, 40, 0, []string{"martyrdom operation", "kill the infidels", "day of the rope"}},
	{extremist, 35, 0, []string{"suicide bomber", "race war", "heil hitler", "sieg heil", "atomwaffen"}},
	{extremist, 30, 0, []string{"white power", "1488"}},
	{extremist, 25, 0, []string{
		"jihad", "caliphate", "daesh", "al qaeda", "great replacement", "accelerationism",
		"white genocide", "ethnic cleansing", "holy war",
		"yihad", "califato", "djihad", "califat", "dschihad", "kalifat", "джихад", "халифат", "جهاد",
		"الخلافة", "الدولة الاسلامية",
	}},
	{extremist, 20, 0, []string{"isis", "zog", "neo nazi"}},
	{extremist, 15, 0, []string{"infidels", "lone wolf"}},

	// Self-harm.
	{selfHarmTerm, 40, 0, []string{
		"kill myself", "killing myself", "end my life", "suicidarme", "me suicider", "mich umbringen",
		"покончить с собой",
	}},
	{selfHarmTerm, 35, 0, []string{
		"want to die", "cut myself", "cutting myself", "no reason to live", "quiero morir", "quiero matarme", "voy a matarme",
		"quero morrer", "quero me matar", "vou me matar", "envie de mourir", "ich will sterben", "хочу умереть",
	}},
	{selfHarmTerm, 30, 0, []string{"wanna die", "suicidal", "self harm", "better off dead"}},
	{selfHarmTerm, 20, 0, []string{"suicide", "selbstmord", "suizid", "суицид", "انتحار"}},
	{selfHarmTerm, 15, 0, []string{"overdose"}},

	// Doxxing: exposing where a person lives, and sending others there.
	{doxxTerm, 35, 0, []string{"swatting", "swat him", "swat her"}},
	{doxxTerm, 30, 0, []string{
		"dox", "doxx", "doxxed", "doxed", "doxxing", "doxing", "деанон", "leaked address",
	}},
	{doxxTerm, 20, 0, []string{
		"home address", "social security number", "mother s maiden name", "driver s license number",
		"passport number", "direccion de su casa", "adresse personnelle", "wohnadresse",
		"endereco residencial", "домашний адрес", "домашня адреса",
	}},
	{residence, 0, 0, []string{
		"lives at", "lives", "where he lives", "where she lives", "vive en", "vive", "habite", "il habite",
		"wohnt", "mora", "живет", "живе", "يسكن",
	}},
	{addressWord, 0, 0, []string{
		"address", "addy", "direccion", "adresse", "endereco", "адрес", "адреса", "العنوان", "عنوان",
	}},
	{street, 0, 0, []string{
		"street", "st", "ave", "avenue", "road", "rd", "blvd", "lane", "ct", "drive", "apt",
		"calle", "av", "avenida", "rue", "impasse", "boulevard", "strasse", "weg", "rua", "apto",
		"ул", "улица", "кв", "вул", "вулиця", "شارع", "عمارة", "منزل", "حي",
	}},
	{callToAct, 0, 0, []string{
		"go get him", "go get her", "get him", "pay him a visit", "pay her a visit", "you know what to do",
		"vayan a por el", "vayan por el", "a por el", "rendre visite", "allez le chercher",
		"allez la chercher", "besucht ihn", "besucht sie", "visita pra ele", "pegar ele", "bora pegar",
		"навестите его", "ловите его", "навідайтесь", "ловіть його", "اذهبوا اليه", "خذوه",
	}},

	// Idioms: they take their words away from the roles above and count for nothing.
	{idiom, 0, 0, []string{
		"kill it", "killed it", "kill time", "killing time", "dead tired", "shoot me a", "shoot your shot",
		"shoot my shot", "blow up my phone", "blow up your phone", "bath bomb", "bath bombs",
		"is the bomb", "s the bomb", "be the bomb", "da bomb", "bomb the test", "bomb the exam",
		"matar el tiempo", "matar el hambre", "es una bomba", "tuer le temps", "tirer au sort",
		"est une bombe", "ist eine bombe", "ist echt eine bombe", "matar o tempo", "e uma bomba",
		"убить время", "просто бомба", "вбити час", "قتل الوقت", "bomb cyclone", "ciclon bomba",
		"cyclone bombe", "burn calories", "quemar calorias", "bruler des calories", "kalorien verbrennen",
		"queimar calorias",
	}},
	// Contexts that say a figurative harm word is figurative.
	{figContext, 0, 0, []string{
		"album", "track", "song", "mixtape", "concert", "gig", "band", "movie", "film", "scene", "trailer",
		"episode", "documentary", "crew", "freestyle", "game", "boss fight", "final boss", "gym", "workout", "pr", "hoops",
		"goal", "striker", "photo", "photos", "photo shoot", "drill", "exercise", "training", "defused",
		"gimnasio", "salle de sport", "fitnessstudio", "academia", "спортзал", "спортзалі",
		"wedding", "portrait", "portraits", "photographer", "camera",
		"disarmed", "wwii", "ww2", "world war", "comedian", "internet", "announcement",
		"disco", "cancion", "pelicula", "escena", "rodamos", "concierto", "juego", "delantero", "golazo",
		"fotos", "simulacro", "desactivo", "guerra civil",
		"chanson", "tourne", "jeu", "buteur", "frappe", "demineurs", "neutralise", "seconde guerre",
		"exercice", "record", "exam", "examen", "exame", "prufung", "экзамен", "іспит",
		"szene", "drehen", "konzert", "spiel", "endboss", "sturmer", "schuss", "fotoshooting", "ubung",
		"entscharft", "fliegerbombe", "weltkrieg",
		"filme", "cena", "gravar", "show", "jogo", "chefao", "atacante", "chute", "foto", "simulado",
		"desativa", "segunda guerra",
		"альбом", "фильм", "сцену", "снимаем", "концерт", "игре", "босса", "нападающего", "удар",
		"фотосессия", "учебная", "саперы", "обезвредили", "авиабомбу", "второй мировой",
		"фільм", "знімаємо", "гурт", "боса", "нападника", "фотосесія", "навчальна", "сапери",
		"знешкодили", "другої світової",
		"الالبوم", "فيلم", "المشهد", "نصور", "الحفلة", "الفرقة", "اللعبة", "المهاجم", "المرمى", "تصوير",
		"تمرين", "يفكك", "الحرب العالمية",
	}},
	// Reporting of a past event: harm words there tell what happened, not what will.
	{reporting, 0, 0, []string{
		"police said", "according to", "yesterday", "were killed", "was killed", "victims", "anniversary",
		"years ago", "trial", "reportedly",
		"ayer", "segun", "victimas", "homenaje", "se cumplen", "dejo",
		"selon", "victimes", "proces", "a fait",
		"gestern", "opfer", "berichtet", "laut", "jahrestag",
		"ontem", "segundo a", "vitimas", "relembra", "deixou", "diz a",
		"вчера", "погибли", "произошел", "по данным", "годовщина",
		"вчора", "загинули", "повідомила", "роковини",
		"الامس", "بحسب", "مقتل", "ذكرى",
	}},
	// Security advisories and breach notices.
	{advisory, 0, 0, []string{
		"advisory", "patch", "update", "upgrade", "cve", "firmware", "vulnerability", "notice",
		"reset", "precaution", "actualicen", "vulnerabilidad", "faille", "mettez a jour", "lucke", "patchen",
		"falha", "atualizem", "confirmou", "troca de senha", "уязвимость", "обновите", "сменить пароли",
		"вразливість", "оновіть", "ثغرة", "حدثوا", "تغيير كلمات المرور",
	}},
}

// Entities raise the score too: an SSN or a card number in a post is personal data on display.
const (
	ssnWeight        = 30
	creditCardWeight = 20
	// manyEmails is how many e-mail addresses in one post look like a dump of accounts.
	manyEmails      = 10
	manyEmailWeight = 20
)
