/// The texts of the right-to-left languages, Arabic and Hebrew, in our own wording. They are
/// stored in logical order; the renderer shapes and orders them for display.
extension RefreshStrings {
    static func arabic(_ key: RefreshTextKey) -> String {
        switch key {
        case .headerIdle: return "اسحب للأسفل للتحديث"
        case .headerPulling: return "أفلت للتحديث"
        case .headerRefreshing: return "جارٍ التحديث…"
        case .headerFinished: return "القائمة محدّثة"
        case .headerFailed: return "فشل التحديث"
        case .autoFooterIdle: return "انقر أو اسحب للأعلى لعرض المزيد"
        case .autoFooterRefreshing: return "جارٍ تحميل المزيد…"
        case .backFooterIdle: return "اسحب للأعلى لعرض المزيد"
        case .backFooterPulling: return "أفلت لتحميل المزيد"
        case .backFooterRefreshing: return "جارٍ تحميل المزيد…"
        case .footerNoMoreData: return "هذا كل شيء"
        case .footerFinished: return "تم التحميل"
        case .footerFailed: return "تعذّر تحميل المزيد"
        case .footerRetryTap: return "تعذّر التحميل. انقر لإعادة المحاولة."
        case .footerRetryPull: return "تعذّر التحميل. اسحب للأعلى لإعادة المحاولة."
        case .headerReleaseToTwoLevel: return "أفلت للفتح"
        case .trailerIdle: return "اسحب لعرض التفاصيل"
        case .trailerPulling: return "أفلت لعرض التفاصيل"
        case .trailerRefreshing: return "جارٍ الفتح…"
        case .trailerNoMoreData: return "لا شيء آخر"
        case .trailerFailed: return "تعذّر التحميل. اسحب مجددًا"
        case .lastUpdated: return "آخر تحديث: "
        case .today: return "اليوم"
        case .noRecord: return "أبدًا"
        }
    }

    static func hebrew(_ key: RefreshTextKey) -> String {
        switch key {
        case .headerIdle: return "משכו למטה לעדכון"
        case .headerPulling: return "שחררו לעדכון"
        case .headerRefreshing: return "מעדכן…"
        case .headerFinished: return "מעודכן"
        case .headerFailed: return "העדכון נכשל"
        case .autoFooterIdle: return "הקישו או משכו למעלה לעוד"
        case .autoFooterRefreshing: return "טוען עוד…"
        case .backFooterIdle: return "משכו למעלה לעוד"
        case .backFooterPulling: return "שחררו לטעינת עוד"
        case .backFooterRefreshing: return "טוען עוד…"
        case .footerNoMoreData: return "זה הכול"
        case .footerFinished: return "נטען"
        case .footerFailed: return "טעינת עוד נכשלה"
        case .footerRetryTap: return "הטעינה נכשלה. הקישו לניסיון חוזר."
        case .footerRetryPull: return "הטעינה נכשלה. משכו למעלה לניסיון חוזר."
        case .headerReleaseToTwoLevel: return "שחררו לפתיחה"
        case .trailerIdle: return "החליקו לפרטים"
        case .trailerPulling: return "שחררו לפרטים"
        case .trailerRefreshing: return "פותח…"
        case .trailerNoMoreData: return "אין עוד"
        case .trailerFailed: return "נכשל. החליקו שוב"
        case .lastUpdated: return "עודכן: "
        case .today: return "היום"
        case .noRecord: return "אף פעם"
        }
    }
}
