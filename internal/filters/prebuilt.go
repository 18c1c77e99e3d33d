package filters

import "slices"

// Prebuilt is a curated list shipped in the binary. Users start a list of their own from one:
// the builder copies its entries into a new list they then own and can edit.
type Prebuilt struct {
	ID          string
	Name        string
	Description string
	Type        Type
	Inclusion   bool
	Entries     []string
}

// Keyword entries match as phrases of their words, case and accents ignored; '*' stands for
// any characters inside a word (query.KeywordList).
var prebuilt = []Prebuilt{
	{
		ID: "profanity", Name: "Profanity", Type: Keyword, Inclusion: false,
		Description: "Leaves out posts with common English swear words and slurs.",
		Entries: []string{
			"fuck*", "motherfuck*", "shit", "shitty", "bullshit", "bitch*", "son of a bitch", "bastard*",
			"asshole*", "dickhead*", "cunt*", "wank*", "twat*", "bollocks", "piss off", "goddamn*",
			"dumbass*", "jackass*", "douchebag*", "slut*", "whore*",
		},
	},
	{
		ID: "crypto-scams", Name: "Crypto and investment scams", Type: Keyword, Inclusion: false,
		Description: "Leaves out giveaway, airdrop, wallet-draining and get-rich-quick spam.",
		Entries: []string{
			"double your bitcoin", "double your crypto", "send btc", "send eth", "crypto giveaway",
			"free airdrop", "claim your airdrop", "airdrop is live", "connect your wallet",
			"validate your wallet", "wallet validation", "guaranteed returns", "guaranteed profit",
			"100x gem", "1000x gem", "presale is live", "pump and dump", "forex signals",
			"binary options", "investment opportunity", "passive income", "recover lost crypto",
			"crypto recovery expert", "dm me for investment",
		},
	},
	{
		ID: "spam-promotions", Name: "Spam and promotions", Type: Keyword, Inclusion: false,
		Description: "Leaves out advertising, engagement bait and follower selling.",
		Entries: []string{
			"promo code", "discount code", "use my code", "link in bio", "click the link",
			"limited time offer", "shop now", "buy now", "free shipping", "follow for follow",
			"follow back", "like and share", "subscribe to my channel", "buy followers",
			"cheap followers", "make money online", "work from home", "earn from home",
			"dm for promo", "dm for collab",
		},
	},
	{
		ID: "threat-false-positives", Name: "Common false positives", Type: Keyword, Inclusion: false,
		Description: "Leaves out sports, gaming, medical and slang phrases that look like threats.",
		Entries: []string{
			"killed it", "killing it", "photo shoot", "photoshoot", "shoot hoops", "bombed the exam",
			"video game", "call of duty", "fortnite", "counter-strike", "battlefield", "dead tired",
			"dying of laughter", "i'm dead", "fire sale", "you're fired", "explosive growth",
			"attack on titan", "heart attack", "panic attack", "flu shot", "booster shot",
			"shot glass", "nail gun", "glue gun", "water gun",
		},
	},
	{
		ID: "threat-language", Name: "Threats and violence", Type: Keyword, Inclusion: true,
		Description: "Keeps only posts that talk about attacks, weapons or threats to people.",
		Entries: []string{
			"bomb threat", "active shooter", "shots fired", "mass shooting", "gunman", "explosion",
			"explosive device", "car bomb", "suspicious package", "terror attack", "terrorist attack",
			"hostage", "stabbing", "arson", "molotov", "riot", "looting", "lockdown",
			"shelter in place", "evacuate", "i will kill", "going to shoot", "manifesto",
		},
	},
	{
		ID: "emergencies", Name: "Emergencies and disasters", Type: Keyword, Inclusion: true,
		Description: "Keeps only posts about natural disasters, outages and accidents.",
		Entries: []string{
			"earthquake", "aftershock", "tsunami", "flood*", "flash flood", "wildfire", "forest fire",
			"hurricane", "tornado", "storm surge", "landslide", "mudslide", "power outage",
			"blackout", "building collapse", "gas leak", "chemical spill", "evacuation order",
			"state of emergency", "search and rescue",
		},
	},
	{
		ID: "weapons-objects", Name: "Weapons and military", Type: ObjectDetection, Inclusion: true,
		Description: "Keeps only posts whose pictures show weapons, ammunition or military forces.",
		Entries:     []string{"rifle", "handgun", "knife", "ammunition", "military vehicle", "soldier"},
	},
	{
		ID: "protest-objects", Name: "Crowds and protests", Type: ObjectDetection, Inclusion: true,
		Description: "Keeps only posts whose pictures show crowds, placards, flags or police lines.",
		Entries:     []string{"crowd", "sign", "flag", "police car", "barrier"},
	},
	{
		ID: "damage-objects", Name: "Fire and damage", Type: ObjectDetection, Inclusion: true,
		Description: "Keeps only posts whose pictures show fire, smoke or rubble.",
		Entries:     []string{"fire", "smoke", "rubble"},
	},
}

// PrebuiltLists returns the curated lists.
func PrebuiltLists() []Prebuilt {
	out := slices.Clone(prebuilt)
	for i := range out {
		out[i].Entries = slices.Clone(out[i].Entries)
	}
	return out
}
