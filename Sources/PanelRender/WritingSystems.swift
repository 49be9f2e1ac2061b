import CHarfBuzz
import PanelGestures

/// The writing systems a panel is expected to show, each with the Debian font that draws it.
///
/// The 30 most used writing systems by number of readers, after Wikipedia's "List of writing
/// systems" by adoption (Latin, Han, Arabic, Devanagari, Bengali, Cyrillic and so on down to
/// Tibetan and Mongolian). Each names the smallest good face Debian bookworm has for it and how
/// it comes: the package depends on the faces of the kiosk's own languages
/// (`RefreshLanguage`'s), recommends the others, and suggests Noto for the four scripts no
/// smaller package covers. The table drives the test that renders a line of each script with
/// no missing-glyph box, `panel-refresh check --items`'s advice and the journal's warning;
/// docs/text.md's font table gives each face's family and size.
public struct WritingSystem: Sendable, Hashable {
    /// How the package brings the face.
    public enum Delivery: String, Sendable {
        /// The package depends on it: a script of the kiosk's own languages.
        case depends
        /// Recommended: apt installs it unless told not to.
        case recommends
        /// Suggested only: no smaller face than all of Noto's (42.5 MB) covers the script.
        case suggests
    }

    /// The script's English name.
    public var name: String
    /// Its ISO 15924 code ("Beng"), as HarfBuzz names scripts.
    public var code: String
    /// A line of text in it (a greeting or a departures board's words) for the tests.
    public var sample: String
    /// The Debian package whose face draws it.
    public var package: String
    /// How the panel's package brings it.
    public var delivery: Delivery

    /// All 30, most readers first.
    public static let all: [WritingSystem] = [
        .init(name: "Latin", code: "Latn", sample: "Next departure to Zürich: 10:42", package: "fonts-dejavu-core", delivery: .depends),
        .init(name: "Han", code: "Hani", sample: "下一班列车 十分钟后出发", package: "fonts-wqy-zenhei", delivery: .depends),
        .init(name: "Arabic (with Urdu)", code: "Arab", sample: "القطار التالي · اگلی ٹرین ہے", package: "fonts-kacst-one, fonts-nafees", delivery: .depends),
        .init(name: "Devanagari", code: "Deva", sample: "अगली ट्रेन दस मिनट में", package: "fonts-lohit-deva", delivery: .recommends),
        .init(name: "Bengali", code: "Beng", sample: "পরবর্তী ট্রেন দশ মিনিটে", package: "fonts-lohit-beng-bengali", delivery: .recommends),
        .init(name: "Cyrillic", code: "Cyrl", sample: "Следующий поезд через десять минут", package: "fonts-dejavu-core", delivery: .depends),
        .init(name: "Kana", code: "Kana", sample: "つぎのでんしゃ カタカナ", package: "fonts-wqy-zenhei", delivery: .depends),
        .init(name: "Javanese", code: "Java", sample: "ꦱꦸꦒꦼꦁ ꦫꦮꦸꦃ", package: "fonts-noto-core", delivery: .suggests),
        .init(name: "Hangul", code: "Hang", sample: "다음 열차는 십 분 후에 출발합니다", package: "fonts-wqy-zenhei", delivery: .depends),
        .init(name: "Telugu", code: "Telu", sample: "తదుపరి రైలు పది నిమిషాల్లో", package: "fonts-lohit-telu", delivery: .recommends),
        .init(name: "Tamil", code: "Taml", sample: "அடுத்த ரயில் பத்து நிமிடங்களில்", package: "fonts-lohit-taml", delivery: .recommends),
        .init(name: "Gujarati", code: "Gujr", sample: "આગલી ટ્રેન દસ મિનિટમાં", package: "fonts-lohit-gujr", delivery: .recommends),
        .init(name: "Kannada", code: "Knda", sample: "ಮುಂದಿನ ರೈಲು ಹತ್ತು ನಿಮಿಷದಲ್ಲಿ", package: "fonts-lohit-knda", delivery: .recommends),
        .init(name: "Myanmar", code: "Mymr", sample: "နောက်ရထား မကြာမီ ထွက်ခွာမည်", package: "fonts-sil-padauk", delivery: .recommends),
        .init(name: "Malayalam", code: "Mlym", sample: "അടുത്ത ട്രെയിൻ പത്ത് മിനിറ്റിൽ", package: "fonts-lohit-mlym", delivery: .recommends),
        .init(name: "Thai", code: "Thai", sample: "รถไฟขบวนถัดไปจะออกในอีกสิบนาที", package: "fonts-tlwg-garuda-ttf", delivery: .recommends),
        .init(name: "Sundanese", code: "Sund", sample: "ᮃᮊ᮪ᮞᮛ ᮞᮥᮔ᮪ᮓ", package: "fonts-noto-core", delivery: .suggests),
        .init(name: "Gurmukhi", code: "Guru", sample: "ਅਗਲੀ ਰੇਲਗੱਡੀ ਦਸ ਮਿੰਟਾਂ ਵਿੱਚ", package: "fonts-lohit-guru", delivery: .recommends),
        .init(name: "Lao", code: "Laoo", sample: "ລົດໄຟຂະບວນຕໍ່ໄປ", package: "fonts-dejavu-core", delivery: .depends),
        .init(name: "Odia", code: "Orya", sample: "ପରବର୍ତ୍ତୀ ଟ୍ରେନ ଦଶ ମିନିଟରେ", package: "fonts-lohit-orya", delivery: .recommends),
        .init(name: "Ethiopic", code: "Ethi", sample: "ቀጣዩ ባቡር በአሥር ደቂቃ ውስጥ", package: "fonts-sil-abyssinica", delivery: .recommends),
        .init(name: "Sinhala", code: "Sinh", sample: "ඊළඟ දුම්රිය විනාඩි දහයකින්", package: "fonts-lklug-sinhala", delivery: .recommends),
        .init(name: "Hebrew", code: "Hebr", sample: "הרכבת הבאה בעוד עשר דקות", package: "fonts-dejavu-core", delivery: .depends),
        .init(name: "Armenian", code: "Armn", sample: "Հաջորդ գնացքը տաս րոպեից", package: "fonts-dejavu-core", delivery: .depends),
        .init(name: "Khmer", code: "Khmr", sample: "រថភ្លើងបន្ទាប់ក្នុងដប់នាទី", package: "fonts-khmeros", delivery: .recommends),
        .init(name: "Greek", code: "Grek", sample: "Επόμενο τρένο σε δέκα λεπτά", package: "fonts-dejavu-core", delivery: .depends),
        .init(name: "Buginese (Lontara)", code: "Bugi", sample: "ᨅᨔ ᨕᨘᨁᨗ", package: "fonts-noto-core", delivery: .suggests),
        .init(name: "Georgian", code: "Geor", sample: "შემდეგი მატარებელი ათ წუთში", package: "fonts-dejavu-core", delivery: .depends),
        .init(name: "Tibetan", code: "Tibt", sample: "བོད་ཡིག་གི་ཡི་གེ", package: "fonts-ddc-uchen", delivery: .recommends),
        .init(name: "Mongolian", code: "Mong", sample: "ᠮᠣᠩᠭᠣᠯ ᠪᠢᠴᠢᠭ", package: "fonts-noto-core", delivery: .suggests),
    ]

    /// The writing system `scalar` belongs to, by HarfBuzz's script property (kana and the
    /// Han ideographs told apart as HarfBuzz tells them); nil for characters of no script
    /// (spaces, digits, punctuation) or a script outside the table.
    public static func of(_ scalar: UInt32) -> WritingSystem? {
        let code = script(of: scalar)
        let lookup = code == "Hira" ? "Kana" : code
        return all.first { $0.code == lookup }
    }

    /// The ISO 15924 code of `scalar`'s script, as HarfBuzz's Unicode functions give it.
    static func script(of scalar: UInt32) -> String {
        let tag = hb_script_to_iso15924_tag(hb_unicode_script(hb_unicode_funcs_get_default(), scalar))
        return String(decoding: [24, 16, 8, 0].map { UInt8((tag >> $0) & 0xFF) }, as: UTF8.self)
    }

    /// The script's name for `scalar`: the table's, else HarfBuzz's ISO 15924 code ("Ogam").
    public static func name(of scalar: UInt32) -> String {
        if let known = of(scalar) { return known.name }
        let code = script(of: scalar)
        return code == "Zyyy" || code == "Zzzz" ? "symbols" : "script \(code)"
    }

    /// `scalar` in Unicode's notation, "U+0995": what the operator is told.
    public static func codePoint(_ scalar: UInt32) -> String { "U+" + TextFormat.hex(scalar, 4).uppercased() }

    /// What an operator installs to draw `scalar`: the table's package, else Noto's, which
    /// covers most other scripts.
    public static func advice(for scalar: UInt32) -> String {
        guard let known = of(scalar) else { return "a font that covers it (fonts-noto-core covers most scripts)" }
        return known.package
    }
}
