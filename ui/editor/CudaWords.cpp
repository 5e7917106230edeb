// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/editor/CudaWords.h"

#include <QFile>

namespace wb::ui {

namespace {

QStringList loadList(const QString& name)
{
    QFile file(QStringLiteral(":/warpbench/") + name);
    QStringList words;
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) return words;
    while (!file.atEnd()) {
        const QString line = QString::fromUtf8(file.readLine()).trimmed();
        if (!line.isEmpty() && !line.startsWith(u'#')) words << line;
    }
    return words;
}

} // namespace

const CudaWords& CudaWords::instance()
{
    static const CudaWords words{loadList(QStringLiteral("cuda_keywords.txt")),
                                 loadList(QStringLiteral("cuda_builtins.txt")),
                                 loadList(QStringLiteral("cuda_types.txt")),
                                 loadList(QStringLiteral("cuda_intrinsics.txt"))};
    return words;
}

QStringList CudaWords::all() const
{
    QStringList words = keywords + builtins + types + intrinsics;
    words.sort();
    words.removeDuplicates();
    return words;
}

} // namespace wb::ui
