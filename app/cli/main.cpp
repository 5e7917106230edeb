// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/CliCommands.h"
#include "core/session/imageio/QtImageCodec.h"

#include <QCoreApplication>

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("warpbench-cli"));
    QCoreApplication::setApplicationVersion(QStringLiteral(WB_VERSION));
    wb::session::installQtImageCodec();
    return wb::cli::runCli(QCoreApplication::arguments());
}
