import ScrollworkApp

ScrollworkCommand.main()
