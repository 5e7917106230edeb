// SPDX-License-Identifier: GPL-3.0-or-later
#include "ui/Application.h"

int main(int argc, char** argv)
{
    return wb::ui::runApplication(argc, argv);
}
