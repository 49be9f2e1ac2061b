/// The built-in texts, in our own wording (MJRefresh's `Localizable.strings` are close but
/// not copied); the trailer has texts in every language, which MJRefresh lacks outside
/// Chinese.
enum RefreshStrings {
    static func text(_ key: RefreshTextKey, _ language: RefreshLanguage) -> String {
        switch language {
        case .english: return english(key)
        case .simplifiedChinese: return simplifiedChinese(key)
        case .traditionalChinese: return traditionalChinese(key)
        case .korean: return korean(key)
        case .russian: return russian(key)
        case .ukrainian: return ukrainian(key)
        case .german: return german(key)
        case .french: return french(key)
        case .spanish: return spanish(key)
        case .italian: return italian(key)
        case .portuguese: return portuguese(key)
        case .japanese: return japanese(key)
        case .arabic: return arabic(key)
        case .hebrew: return hebrew(key)
        }
    }

    private static func english(_ key: RefreshTextKey) -> String {
        switch key {
        case .headerIdle: return "Pull down to update"
        case .headerPulling: return "Let go to update"
        case .headerRefreshing: return "Updating…"
        case .headerFinished: return "Up to date"
        case .headerFailed: return "Update failed"
        case .autoFooterIdle: return "Tap or pull up for more"
        case .autoFooterRefreshing: return "Loading more…"
        case .backFooterIdle: return "Pull up for more"
        case .backFooterPulling: return "Let go to load more"
        case .backFooterRefreshing: return "Loading more…"
        case .footerNoMoreData: return "That's everything"
        case .footerFinished: return "Loaded"
        case .footerFailed: return "Could not load more"
        case .footerRetryTap: return "Could not load. Tap to retry."
        case .footerRetryPull: return "Could not load. Pull up to retry."
        case .headerReleaseToTwoLevel: return "Release to open"
        case .trailerIdle: return "Swipe for details"
        case .trailerPulling: return "Let go for details"
        case .trailerRefreshing: return "Opening…"
        case .trailerNoMoreData: return "Nothing more"
        case .trailerFailed: return "Failed. Swipe to retry"
        case .lastUpdated: return "Updated: "
        case .today: return "today"
        case .noRecord: return "never"
        case .listLoading: return "Loading…"
        case .listEmpty: return "Nothing here yet"
        case .listEmptyHint: return "Pull down to refresh"
        case .listFailed: return "Could not load"
        case .listRetryHint: return "Pull down to retry"
        case .retry: return "Try again"
        case .refreshFailed: return "Could not refresh"
        case .itemsFrom: return "items from {time}"
        case .retryingAt: return "retrying at {time}"
        case .offlineSince: return "offline since {time}"
        case .back: return "Back"
        case .twoLevelBackHint: return "Push up to go back"
        }
    }

    private static func simplifiedChinese(_ key: RefreshTextKey) -> String {
        switch key {
        case .headerIdle: return "下拉即可更新"
        case .headerPulling: return "松手立即更新"
        case .headerRefreshing: return "正在更新…"
        case .headerFinished: return "已是最新"
        case .headerFailed: return "更新失败"
        case .autoFooterIdle: return "点按或上拉查看更多"
        case .autoFooterRefreshing: return "正在加载更多…"
        case .backFooterIdle: return "上拉查看更多"
        case .backFooterPulling: return "松手加载更多"
        case .backFooterRefreshing: return "正在加载更多…"
        case .footerNoMoreData: return "没有更多内容了"
        case .footerFinished: return "加载完成"
        case .footerFailed: return "加载失败"
        case .footerRetryTap: return "加载失败，点击重试"
        case .footerRetryPull: return "加载失败，上拉重试"
        case .headerReleaseToTwoLevel: return "释放进入二楼"
        case .trailerIdle: return "左滑查看详情"
        case .trailerPulling: return "松手查看详情"
        case .trailerRefreshing: return "正在打开…"
        case .trailerNoMoreData: return "没有更多了"
        case .trailerFailed: return "加载失败，滑动重试"
        case .lastUpdated: return "上次更新："
        case .today: return "今天"
        case .noRecord: return "从未更新"
        case .listLoading: return "正在加载…"
        case .listEmpty: return "暂无内容"
        case .listEmptyHint: return "下拉刷新"
        case .listFailed: return "加载失败"
        case .listRetryHint: return "下拉重试"
        case .retry: return "重试"
        case .refreshFailed: return "刷新失败"
        case .itemsFrom: return "{time} 的内容"
        case .retryingAt: return "{time} 重试"
        case .offlineSince: return "自 {time} 起离线"
        case .back: return "返回"
        case .twoLevelBackHint: return "上推返回"
        }
    }

    private static func traditionalChinese(_ key: RefreshTextKey) -> String {
        switch key {
        case .headerIdle: return "下拉即可更新"
        case .headerPulling: return "鬆手立即更新"
        case .headerRefreshing: return "正在更新…"
        case .headerFinished: return "已是最新"
        case .headerFailed: return "更新失敗"
        case .autoFooterIdle: return "點按或上拉查看更多"
        case .autoFooterRefreshing: return "正在載入更多…"
        case .backFooterIdle: return "上拉查看更多"
        case .backFooterPulling: return "鬆手載入更多"
        case .backFooterRefreshing: return "正在載入更多…"
        case .footerNoMoreData: return "沒有更多內容了"
        case .footerFinished: return "載入完成"
        case .footerFailed: return "載入失敗"
        case .footerRetryTap: return "載入失敗，點擊重試"
        case .footerRetryPull: return "載入失敗，上拉重試"
        case .headerReleaseToTwoLevel: return "釋放進入二樓"
        case .trailerIdle: return "左滑查看詳情"
        case .trailerPulling: return "鬆手查看詳情"
        case .trailerRefreshing: return "正在開啟…"
        case .trailerNoMoreData: return "沒有更多了"
        case .trailerFailed: return "載入失敗，滑動重試"
        case .lastUpdated: return "上次更新："
        case .today: return "今天"
        case .noRecord: return "從未更新"
        case .listLoading: return "正在載入…"
        case .listEmpty: return "暫無內容"
        case .listEmptyHint: return "下拉重新整理"
        case .listFailed: return "載入失敗"
        case .listRetryHint: return "下拉重試"
        case .retry: return "重試"
        case .refreshFailed: return "重新整理失敗"
        case .itemsFrom: return "{time} 的內容"
        case .retryingAt: return "{time} 重試"
        case .offlineSince: return "自 {time} 起離線"
        case .back: return "返回"
        case .twoLevelBackHint: return "上推返回"
        }
    }

    private static func korean(_ key: RefreshTextKey) -> String {
        switch key {
        case .headerIdle: return "당겨서 새로 고침"
        case .headerPulling: return "손을 떼면 새로 고침"
        case .headerRefreshing: return "새로 고치는 중…"
        case .headerFinished: return "최신 상태입니다"
        case .headerFailed: return "새로 고침 실패"
        case .autoFooterIdle: return "탭하거나 위로 당겨 더 보기"
        case .autoFooterRefreshing: return "더 불러오는 중…"
        case .backFooterIdle: return "위로 당겨 더 보기"
        case .backFooterPulling: return "손을 떼면 더 불러오기"
        case .backFooterRefreshing: return "더 불러오는 중…"
        case .footerNoMoreData: return "더 이상 항목이 없습니다"
        case .footerFinished: return "불러오기 완료"
        case .footerFailed: return "불러오기 실패"
        case .footerRetryTap: return "불러오지 못했습니다. 탭하여 다시 시도"
        case .footerRetryPull: return "불러오지 못했습니다. 위로 당겨 다시 시도"
        case .headerReleaseToTwoLevel: return "놓으면 열립니다"
        case .trailerIdle: return "밀어서 자세히 보기"
        case .trailerPulling: return "손을 떼면 자세히 보기"
        case .trailerRefreshing: return "여는 중…"
        case .trailerNoMoreData: return "더 이상 없음"
        case .trailerFailed: return "실패. 다시 밀어 주세요"
        case .lastUpdated: return "마지막 업데이트: "
        case .today: return "오늘"
        case .noRecord: return "기록 없음"
        case .listLoading: return "불러오는 중…"
        case .listEmpty: return "아직 항목이 없습니다"
        case .listEmptyHint: return "아래로 당겨 새로고침"
        case .listFailed: return "불러오지 못했습니다"
        case .listRetryHint: return "아래로 당겨 다시 시도"
        case .retry: return "다시 시도"
        case .refreshFailed: return "새로고침 실패"
        case .itemsFrom: return "{time} 기준 항목"
        case .retryingAt: return "{time}에 다시 시도"
        case .offlineSince: return "{time}부터 오프라인"
        case .back: return "뒤로"
        case .twoLevelBackHint: return "위로 밀어 돌아가기"
        }
    }

    private static func russian(_ key: RefreshTextKey) -> String {
        switch key {
        case .headerIdle: return "Потяните вниз для обновления"
        case .headerPulling: return "Отпустите для обновления"
        case .headerRefreshing: return "Обновляем…"
        case .headerFinished: return "Всё актуально"
        case .headerFailed: return "Не удалось обновить"
        case .autoFooterIdle: return "Нажмите или потяните вверх"
        case .autoFooterRefreshing: return "Загружаем ещё…"
        case .backFooterIdle: return "Потяните вверх, чтобы загрузить ещё"
        case .backFooterPulling: return "Отпустите, чтобы загрузить ещё"
        case .backFooterRefreshing: return "Загружаем ещё…"
        case .footerNoMoreData: return "Больше ничего нет"
        case .footerFinished: return "Загружено"
        case .footerFailed: return "Не удалось загрузить"
        case .footerRetryTap: return "Не удалось загрузить. Нажмите, чтобы повторить"
        case .footerRetryPull: return "Не удалось загрузить. Потяните вверх, чтобы повторить"
        case .headerReleaseToTwoLevel: return "Отпустите, чтобы открыть"
        case .trailerIdle: return "Потяните для подробностей"
        case .trailerPulling: return "Отпустите для подробностей"
        case .trailerRefreshing: return "Открываем…"
        case .trailerNoMoreData: return "Больше ничего"
        case .trailerFailed: return "Ошибка. Проведите снова"
        case .lastUpdated: return "Обновлено: "
        case .today: return "сегодня"
        case .noRecord: return "ни разу"
        case .listLoading: return "Загрузка…"
        case .listEmpty: return "Здесь пока пусто"
        case .listEmptyHint: return "Потяните вниз, чтобы обновить"
        case .listFailed: return "Не удалось загрузить"
        case .listRetryHint: return "Потяните вниз, чтобы повторить"
        case .retry: return "Повторить"
        case .refreshFailed: return "Не удалось обновить"
        case .itemsFrom: return "данные от {time}"
        case .retryingAt: return "повтор в {time}"
        case .offlineSince: return "нет связи с {time}"
        case .back: return "Назад"
        case .twoLevelBackHint: return "Смахните вверх, чтобы вернуться"
        }
    }

    private static func ukrainian(_ key: RefreshTextKey) -> String {
        switch key {
        case .headerIdle: return "Потягніть униз для оновлення"
        case .headerPulling: return "Відпустіть для оновлення"
        case .headerRefreshing: return "Оновлюємо…"
        case .headerFinished: return "Усе актуально"
        case .headerFailed: return "Не вдалося оновити"
        case .autoFooterIdle: return "Торкніться або потягніть угору"
        case .autoFooterRefreshing: return "Завантажуємо ще…"
        case .backFooterIdle: return "Потягніть угору, щоб завантажити ще"
        case .backFooterPulling: return "Відпустіть, щоб завантажити ще"
        case .backFooterRefreshing: return "Завантажуємо ще…"
        case .footerNoMoreData: return "Більше нічого немає"
        case .footerFinished: return "Завантажено"
        case .footerFailed: return "Не вдалося завантажити"
        case .footerRetryTap: return "Не вдалося завантажити. Торкніться, щоб повторити"
        case .footerRetryPull: return "Не вдалося завантажити. Потягніть угору, щоб повторити"
        case .headerReleaseToTwoLevel: return "Відпустіть, щоб відкрити"
        case .trailerIdle: return "Потягніть для подробиць"
        case .trailerPulling: return "Відпустіть для подробиць"
        case .trailerRefreshing: return "Відкриваємо…"
        case .trailerNoMoreData: return "Більше нічого"
        case .trailerFailed: return "Помилка. Проведіть знову"
        case .lastUpdated: return "Оновлено: "
        case .today: return "сьогодні"
        case .noRecord: return "жодного разу"
        case .listLoading: return "Завантаження…"
        case .listEmpty: return "Тут поки порожньо"
        case .listEmptyHint: return "Потягніть униз, щоб оновити"
        case .listFailed: return "Не вдалося завантажити"
        case .listRetryHint: return "Потягніть униз, щоб повторити"
        case .retry: return "Повторити"
        case .refreshFailed: return "Не вдалося оновити"
        case .itemsFrom: return "дані від {time}"
        case .retryingAt: return "повтор о {time}"
        case .offlineSince: return "немає зв’язку з {time}"
        case .back: return "Назад"
        case .twoLevelBackHint: return "Проведіть угору, щоб повернутися"
        }
    }
}
