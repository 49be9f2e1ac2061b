/// The texts of the languages added after MJRefresh's six: German, French, Spanish, Italian,
/// Portuguese and Japanese, in our own wording.
extension RefreshStrings {
    static func german(_ key: RefreshTextKey) -> String {
        switch key {
        case .headerIdle: return "Zum Aktualisieren nach unten ziehen"
        case .headerPulling: return "Loslassen zum Aktualisieren"
        case .headerRefreshing: return "Wird aktualisiert…"
        case .headerFinished: return "Aktuell"
        case .headerFailed: return "Aktualisierung fehlgeschlagen"
        case .autoFooterIdle: return "Tippen oder nach oben ziehen für mehr"
        case .autoFooterRefreshing: return "Weitere werden geladen…"
        case .backFooterIdle: return "Nach oben ziehen für mehr"
        case .backFooterPulling: return "Loslassen, um mehr zu laden"
        case .backFooterRefreshing: return "Weitere werden geladen…"
        case .footerNoMoreData: return "Das ist alles"
        case .footerFinished: return "Geladen"
        case .footerFailed: return "Laden fehlgeschlagen"
        case .footerRetryTap: return "Laden fehlgeschlagen. Tippen zum Wiederholen"
        case .footerRetryPull: return "Laden fehlgeschlagen. Nach oben ziehen zum Wiederholen"
        case .trailerIdle: return "Wischen für Details"
        case .trailerPulling: return "Loslassen für Details"
        case .trailerRefreshing: return "Wird geöffnet…"
        case .trailerNoMoreData: return "Nichts weiter"
        case .lastUpdated: return "Aktualisiert: "
        case .today: return "heute"
        case .noRecord: return "nie"
        }
    }

    static func french(_ key: RefreshTextKey) -> String {
        switch key {
        case .headerIdle: return "Tirer vers le bas pour actualiser"
        case .headerPulling: return "Relâcher pour actualiser"
        case .headerRefreshing: return "Actualisation…"
        case .headerFinished: return "À jour"
        case .headerFailed: return "Échec de l’actualisation"
        case .autoFooterIdle: return "Toucher ou tirer vers le haut pour plus"
        case .autoFooterRefreshing: return "Chargement…"
        case .backFooterIdle: return "Tirer vers le haut pour plus"
        case .backFooterPulling: return "Relâcher pour charger plus"
        case .backFooterRefreshing: return "Chargement…"
        case .footerNoMoreData: return "C’est tout"
        case .footerFinished: return "Chargé"
        case .footerFailed: return "Impossible de charger plus"
        case .footerRetryTap: return "Échec du chargement. Toucher pour réessayer"
        case .footerRetryPull: return "Échec du chargement. Tirer vers le haut pour réessayer"
        case .trailerIdle: return "Glisser pour les détails"
        case .trailerPulling: return "Relâcher pour les détails"
        case .trailerRefreshing: return "Ouverture…"
        case .trailerNoMoreData: return "Rien de plus"
        case .lastUpdated: return "Mis à jour : "
        case .today: return "aujourd’hui"
        case .noRecord: return "jamais"
        }
    }

    static func spanish(_ key: RefreshTextKey) -> String {
        switch key {
        case .headerIdle: return "Desliza hacia abajo para actualizar"
        case .headerPulling: return "Suelta para actualizar"
        case .headerRefreshing: return "Actualizando…"
        case .headerFinished: return "Actualizado"
        case .headerFailed: return "Error al actualizar"
        case .autoFooterIdle: return "Toca o desliza hacia arriba para ver más"
        case .autoFooterRefreshing: return "Cargando más…"
        case .backFooterIdle: return "Desliza hacia arriba para ver más"
        case .backFooterPulling: return "Suelta para cargar más"
        case .backFooterRefreshing: return "Cargando más…"
        case .footerNoMoreData: return "No hay más"
        case .footerFinished: return "Cargado"
        case .footerFailed: return "No se pudo cargar más"
        case .footerRetryTap: return "No se pudo cargar. Toca para reintentar"
        case .footerRetryPull: return "No se pudo cargar. Desliza hacia arriba para reintentar"
        case .trailerIdle: return "Desliza para ver detalles"
        case .trailerPulling: return "Suelta para ver detalles"
        case .trailerRefreshing: return "Abriendo…"
        case .trailerNoMoreData: return "Nada más"
        case .lastUpdated: return "Actualizado: "
        case .today: return "hoy"
        case .noRecord: return "nunca"
        }
    }

    static func italian(_ key: RefreshTextKey) -> String {
        switch key {
        case .headerIdle: return "Trascina giù per aggiornare"
        case .headerPulling: return "Rilascia per aggiornare"
        case .headerRefreshing: return "Aggiornamento…"
        case .headerFinished: return "Aggiornato"
        case .headerFailed: return "Aggiornamento non riuscito"
        case .autoFooterIdle: return "Tocca o trascina su per altro"
        case .autoFooterRefreshing: return "Caricamento…"
        case .backFooterIdle: return "Trascina su per altro"
        case .backFooterPulling: return "Rilascia per caricare altro"
        case .backFooterRefreshing: return "Caricamento…"
        case .footerNoMoreData: return "Non c’è altro"
        case .footerFinished: return "Caricato"
        case .footerFailed: return "Impossibile caricare altro"
        case .footerRetryTap: return "Caricamento non riuscito. Tocca per riprovare"
        case .footerRetryPull: return "Caricamento non riuscito. Trascina su per riprovare"
        case .trailerIdle: return "Scorri per i dettagli"
        case .trailerPulling: return "Rilascia per i dettagli"
        case .trailerRefreshing: return "Apertura…"
        case .trailerNoMoreData: return "Nient’altro"
        case .lastUpdated: return "Aggiornato: "
        case .today: return "oggi"
        case .noRecord: return "mai"
        }
    }

    static func portuguese(_ key: RefreshTextKey) -> String {
        switch key {
        case .headerIdle: return "Puxe para baixo para atualizar"
        case .headerPulling: return "Solte para atualizar"
        case .headerRefreshing: return "Atualizando…"
        case .headerFinished: return "Atualizado"
        case .headerFailed: return "Falha ao atualizar"
        case .autoFooterIdle: return "Toque ou puxe para cima para mais"
        case .autoFooterRefreshing: return "Carregando mais…"
        case .backFooterIdle: return "Puxe para cima para mais"
        case .backFooterPulling: return "Solte para carregar mais"
        case .backFooterRefreshing: return "Carregando mais…"
        case .footerNoMoreData: return "Isso é tudo"
        case .footerFinished: return "Carregado"
        case .footerFailed: return "Não foi possível carregar mais"
        case .footerRetryTap: return "Não foi possível carregar. Toque para tentar de novo"
        case .footerRetryPull: return "Não foi possível carregar. Puxe para cima para tentar de novo"
        case .trailerIdle: return "Deslize para ver detalhes"
        case .trailerPulling: return "Solte para ver detalhes"
        case .trailerRefreshing: return "Abrindo…"
        case .trailerNoMoreData: return "Nada mais"
        case .lastUpdated: return "Atualizado: "
        case .today: return "hoje"
        case .noRecord: return "nunca"
        }
    }

    static func japanese(_ key: RefreshTextKey) -> String {
        switch key {
        case .headerIdle: return "引っ張って更新"
        case .headerPulling: return "離して更新"
        case .headerRefreshing: return "更新中…"
        case .headerFinished: return "最新です"
        case .headerFailed: return "更新に失敗しました"
        case .autoFooterIdle: return "タップまたは上に引いてもっと見る"
        case .autoFooterRefreshing: return "読み込み中…"
        case .backFooterIdle: return "上に引いてもっと見る"
        case .backFooterPulling: return "離してもっと読み込む"
        case .backFooterRefreshing: return "読み込み中…"
        case .footerNoMoreData: return "すべて表示しました"
        case .footerFinished: return "読み込みました"
        case .footerFailed: return "読み込めませんでした"
        case .footerRetryTap: return "読み込めませんでした。タップで再試行"
        case .footerRetryPull: return "読み込めませんでした。上に引いて再試行"
        case .trailerIdle: return "スワイプで詳細"
        case .trailerPulling: return "離して詳細を表示"
        case .trailerRefreshing: return "開いています…"
        case .trailerNoMoreData: return "これ以上ありません"
        case .lastUpdated: return "最終更新: "
        case .today: return "今日"
        case .noRecord: return "なし"
        }
    }
}
