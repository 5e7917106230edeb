// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QPair>
#include <QString>

namespace wb::ui {

/// One example of the Examples menu.
struct ExampleEntry {
    QString title;       ///< "saxpy", "bugs/missing_bounds_check"
    QString path;        ///< its .wbproj
    QString description; ///< one line, from its README.md or the project's description
    bool buggy = false;  ///< under examples/bugs: wrong on purpose
};

/// The shipped examples and documentation (under dataDir(), or the source tree's in a build).
struct Examples {
    /// The shipped examples' folder.
    static QString folder();
    /// Every shipped project: (title, path), sorted.
    static QList<QPair<QString, QString>> all();
    /// The examples of the Examples menu (the installed tree's flat copies for the CLI left
    /// out), each with its one line.
    static QList<ExampleEntry> entries();
    /// The documentation folder: installed (share/doc/warpbench) or the source tree's docs/.
    static QString documentationDir();
};

} // namespace wb::ui
