import ScrollworkApp

ScrollworkCommand.runAsMain()
