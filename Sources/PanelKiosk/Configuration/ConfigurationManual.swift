import PanelHost

/// panel-refresh.conf(5), made from the key table that also drives parsing and that
/// docs/configuration.md documents (a test holds the two to the same keys).
extension KioskConfiguration {
    /// The manual page in roff, dated `date` (YYYY-MM-DD).
    public static func manPage(version: String, date: String) -> String {
        let escape = CommandHelp.roffEscape
        var roff = """
        .TH PANEL\\-REFRESH.CONF 5 "\(date)" "panel\\-refresh \(version)" "File Formats"
        .SH NAME
        panel\\-refresh.conf \\- configuration of the panel\\-refresh kiosk
        .SH SYNOPSIS
        .I /etc/panel\\-refresh/config
        .SH DESCRIPTION
        \\fBpanel\\-refresh run\\fR reads this file at start and again on SIGHUP (a file that does not \
        read keeps the configuration in use). \\fBpanel\\-refresh check\\fR reads it and reports every \
        error with its line, starting nothing.
        .PP
        The format is INI\\-style: \\fB[section]\\fR headers and \\fBkey = value\\fR lines. Lines starting \
        with \\fB#\\fR or \\fB;\\fR are comments. There are no comments after a value: everything after \
        \\fB=\\fR to the end of the line is the value. A key may be set once. An unknown section or key \
        is an error that names the closest known one. Numbers are decimal (no hexadecimal, no \
        \\fBnan\\fR), within the range each key gives.
        .SH KEYS

        """
        for section in sections {
            roff += ".SS [\(escape(section))]\n"
            for key in keys where key.section == section {
                roff += ".TP\n.B \(escape(key.name))\n\(escape(key.doc))\n"
            }
        }
        roff += """
        .SH ENVIRONMENT
        .TP
        .B CREDENTIALS_DIRECTORY
        where data.url\\-password\\-file, data.header\\-file and data.mqtt\\-password\\-file are read when they name a credential (no slash): systemd sets it for LoadCredential=
        .TP
        .B STATE_DIRECTORY\\fR, \\fBCACHE_DIRECTORY\\fR, \\fBRUNTIME_DIRECTORY
        what state.directory, state.cache\\-directory and state.control\\-socket default to, as systemd sets them for the unit
        .TP
        .B LANG\\fR, \\fBTZ
        appearance.locale's default, and the clock the night, the off hours and the board's times are read on
        .SH FILES
        .TP
        .I /etc/panel\\-refresh/config
        this file
        .TP
        .I /usr/share/doc/panel\\-refresh/configuration.md
        every key with its default and an example
        .SH SEE ALSO
        .BR panel\\-refresh (1),
        .BR systemd.exec (5),
        .BR systemd\\-creds (1)

        """
        return roff
    }
}
