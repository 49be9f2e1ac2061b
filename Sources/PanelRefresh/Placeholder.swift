import PanelUI
