import PanelHost

/// What the person at the panel reads when the list could not be refreshed: what happened, in
/// the panel's language and in words for a passer-by; no address, path, topic, status code or
/// byte count. The journal, `ctl status` (`lastError`) and the metrics keep the detail
/// (``DataSourceError/description``).
extension DataSourceError {
    /// The kind of trouble a passer-by is told of.
    enum Trouble: CaseIterable { case noConnection, busy, unreadable, notLoaded, waiting }

    /// This error's kind.
    var trouble: Trouble {
        switch self {
        case .unreachable, .timeout, .stalled, .cancelled: return .noConnection
        case .busy: return .busy
        case .malformed, .tooLarge: return .unreadable
        case .exitStatus: return .notLoaded
        case .nothingPublished: return .waiting
        }
    }

    /// The words for `error` in `language`: a data source's kind of trouble, "the list could
    /// not be loaded" for anything else.
    public static func passerByText(_ error: any Error, language: RefreshLanguage) -> String {
        let index = Trouble.allCases.firstIndex(of: (error as? DataSourceError)?.trouble ?? .notLoaded) ?? 0
        let words = Self.words[language] ?? Self.words[.english] ?? []
        return words.indices.contains(index) ? words[index] : ""
    }

    /// No connection, busy, unreadable, not loaded, waiting for the list: in each shipped language.
    static let words: [RefreshLanguage: [String]] = [
        .english: ["no connection", "the server is busy", "the answer could not be read", "the list could not be loaded", "waiting for the list"],
        .german: ["keine Verbindung", "der Server ist ausgelastet", "die Antwort war nicht lesbar", "die Liste konnte nicht geladen werden", "warte auf die Liste"],
        .french: ["pas de connexion", "le serveur est occupé", "la réponse est illisible", "la liste n’a pas pu être chargée", "en attente de la liste"],
        .spanish: ["sin conexión", "el servidor está ocupado", "no se pudo leer la respuesta", "no se pudo cargar la lista", "esperando la lista"],
        .italian: ["nessuna connessione", "il server è occupato", "la risposta non è leggibile", "impossibile caricare l’elenco", "in attesa dell’elenco"],
        .portuguese: ["sem conexão", "o servidor está ocupado", "não foi possível ler a resposta", "não foi possível carregar a lista", "aguardando a lista"],
        .russian: ["нет соединения", "сервер занят", "не удалось прочитать ответ", "не удалось загрузить список", "ожидание списка"],
        .ukrainian: ["немає з’єднання", "сервер зайнятий", "не вдалося прочитати відповідь", "не вдалося завантажити список", "очікування списку"],
        .simplifiedChinese: ["无法连接", "服务器繁忙", "无法读取响应", "无法加载列表", "正在等待列表"],
        .traditionalChinese: ["無法連線", "伺服器忙碌", "無法讀取回應", "無法載入列表", "正在等待列表"],
        .korean: ["연결할 수 없음", "서버가 혼잡함", "응답을 읽을 수 없음", "목록을 불러올 수 없음", "목록을 기다리는 중"],
        .japanese: ["接続できません", "サーバーが混雑しています", "応答を読み取れません", "リストを読み込めません", "リストを待っています"],
        .arabic: ["لا يوجد اتصال", "الخادم مشغول", "تعذّرت قراءة الرد", "تعذّر تحميل القائمة", "في انتظار القائمة"],
        .hebrew: ["אין חיבור", "השרת עמוס", "לא ניתן לקרוא את התשובה", "לא ניתן לטעון את הרשימה", "ממתין לרשימה"],
    ]
}
