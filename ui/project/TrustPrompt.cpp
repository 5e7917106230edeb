// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/project/TrustPrompt.h"

#include <QCoreApplication>
#include <QMessageBox>
#include <QPushButton>

namespace wb::ui {

bool TrustPrompt::ask(QWidget* parent, const QString& project,
                      const std::vector<FlagRefusal>& refusals)
{
    const auto tr = [](const char* text) {
        return QCoreApplication::translate("wb::ui::TrustPrompt", text);
    };
    QString list;
    for (const FlagRefusal& r : refusals)
        list += QStringLiteral("<li><b>%1</b> (%2): %3</li>")
                    .arg(QString::fromStdString(r.flag).toHtmlEscaped(),
                         QString::fromStdString(r.field).toHtmlEscaped(),
                         QString::fromStdString(r.reason).toHtmlEscaped());
    QMessageBox box(parent);
    box.setObjectName(QStringLiteral("trustPrompt"));
    box.setIcon(QMessageBox::Warning);
    box.setWindowTitle(tr("Trust this project?"));
    box.setTextFormat(Qt::RichText);
    box.setText(
        tr("<b>%1</b> passes compiler flags outside the allowed set:<ul>%2</ul>"
           "Such flags can run programs on this computer or read files outside the project "
           "folder. Run them only if you trust whoever wrote this project file. Nothing has been "
           "compiled with them.")
            .arg(project.toHtmlEscaped(), list));
    QPushButton* trust = box.addButton(tr("Trust and run"), QMessageBox::AcceptRole);
    trust->setObjectName(QStringLiteral("trustButton"));
    QPushButton* cancel = box.addButton(QMessageBox::Cancel);
    box.setDefaultButton(cancel);
    box.setEscapeButton(cancel);
    box.exec();
    return box.clickedButton() == trust;
}

} // namespace wb::ui
