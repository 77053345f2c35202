"""Forty neutral, correct pages (written for these tests) across eight topics and four languages.

Each is ``(topic, language, text)``; the tests put each on a domain no table knows. Page evidence
must never put them below the unknown level, and every reason it gives must name a cue found in
the page.
"""
from __future__ import annotations

NEUTRAL_PAGES: tuple[tuple[str, str, str], ...] = (
    ("finance", "en", "An index fund holds every stock of a market index, so its return follows the index minus "
     "a small annual fee. Because it trades rarely, its costs and taxes are usually lower than those of an actively "
     "managed fund. Diversification lowers the risk of any single company but not the risk of the whole market."),
    ("law", "en", "A tenant who wants to end a lease early should first read the lease for a break clause. Without "
     "one, the landlord may claim rent until a new tenant is found, but in many places the landlord has a duty to "
     "try to relet the flat. Keep copies of all letters and give notice in writing."),
    ("software", "en", "Git stores a project's history as a chain of commits. A branch is only a movable pointer to "
     "one commit, which is why creating a branch is fast. Merging joins two lines of work; rebasing replays your "
     "commits on top of another branch and rewrites their identifiers, so avoid rebasing work others have pulled."),
    ("science", "en", "Water boils at a lower temperature on a mountain because the air pressure is lower there. "
     "At sea level the boiling point is 100 degrees Celsius; at about 3,000 metres it is close to 90 degrees, so "
     "pasta takes longer to cook even though the water is bubbling."),
    ("history", "en", "The printing press with movable metal type was developed by Johannes Gutenberg in Mainz "
     "around 1450. Printed books became cheaper and more uniform, which helped spread literacy, scientific ideas "
     "and the writings of the Reformation across Europe within a few decades."),
    ("consumer", "en", "When you compare washing machines, look at the energy label, the drum capacity and the spin "
     "speed. A larger drum suits a family but uses more water on small loads. Check the noise level if the machine "
     "will stand near a bedroom, and measure the space before you order one."),
    ("news", "en", "The regional library will close for two weeks in August while the heating system is replaced. "
     "Books can be returned at the drop box by the main entrance, and loans that fall due during the closure will "
     "be extended. The reading room reopens on the first Monday of September."),
    ("health", "en", "Washing your hands with soap for at least twenty seconds removes most germs that cause colds "
     "and stomach infections. Dry them with a clean towel. Hand sanitiser with enough alcohol works when soap and "
     "water are not available, but not as well on visibly dirty hands."),
    ("software", "en", "A Python virtual environment keeps the packages of one project apart from those of "
     "another. Create one with python -m venv .venv, activate it, and install what the project needs with pip. "
     "Deleting the folder removes the environment without touching the system Python."),
    ("finance", "en", "Compound interest means that interest is paid on earlier interest as well as on the money "
     "you saved. Over long periods this makes a large difference: at five percent a year, a sum roughly doubles in "
     "about fourteen years. Fees and inflation reduce the real gain."),
    ("finance", "de", "Ein Tagesgeldkonto ist ein Sparkonto, auf das man jederzeit zugreifen kann. Der Zinssatz ist "
     "variabel und kann von der Bank geändert werden. Einlagen sind in der Europäischen Union bis zu einer "
     "gesetzlichen Grenze pro Kunde und Bank geschützt, wenn die Bank ausfällt."),
    ("law", "de", "Wer eine Ware im Internet kauft, kann den Vertrag in der Regel innerhalb von vierzehn Tagen ohne "
     "Angabe von Gründen widerrufen. Die Frist beginnt meist mit dem Erhalt der Ware. Der Widerruf sollte schriftlich "
     "erfolgen, zum Beispiel per E-Mail, damit er sich später belegen lässt."),
    ("software", "de", "Eine Datenbank speichert Daten in Tabellen mit Zeilen und Spalten. Mit einem Index findet "
     "die Datenbank Zeilen schneller, weil sie nicht jede Zeile lesen muss. Jeder Index kostet aber Speicherplatz und "
     "verlangsamt das Schreiben, deshalb legt man ihn nur für häufige Abfragen an."),
    ("science", "de", "Der Mond zeigt der Erde immer dieselbe Seite, weil er sich in derselben Zeit einmal um sich "
     "selbst dreht, in der er die Erde umkreist. Diese gebundene Rotation ist durch die Gezeitenkräfte der Erde über "
     "lange Zeit entstanden. Die Rückseite ist deshalb nicht dunkel, sondern nur von der Erde aus unsichtbar."),
    ("history", "de", "Die Berliner Mauer wurde im August 1961 gebaut und trennte Ost- und West-Berlin fast drei "
     "Jahrzehnte lang. Am Abend des neunten November 1989 wurden die Grenzübergänge geöffnet, und tausende Menschen "
     "gingen noch in derselben Nacht in den Westteil der Stadt."),
    ("consumer", "de", "Beim Kauf eines Fahrrads sollte man auf die richtige Rahmengröße achten. Eine Probefahrt "
     "zeigt, ob man bequem sitzt und den Lenker gut erreicht. Für den Alltag sind Schutzbleche, eine gute "
     "Beleuchtung und ein stabiler Gepäckträger nützlich."),
    ("news", "de", "Die Stadtverwaltung hat angekündigt, dass die Brücke über den Fluss ab Montag für drei Wochen "
     "gesperrt wird. Der Verkehr wird über die Umgehungsstraße geleitet. Fußgänger und Radfahrer können eine "
     "provisorische Fähre nutzen, die tagsüber alle zwanzig Minuten fährt."),
    ("health", "de", "Ausreichend Schlaf ist für Erwachsene wichtig; die meisten brauchen sieben bis neun Stunden "
     "pro Nacht. Regelmäßige Schlafenszeiten, ein dunkles und kühles Zimmer und wenig Koffein am Nachmittag können "
     "helfen, besser einzuschlafen."),
    ("history", "de", "Die Hanse war ein Bund von Kaufleuten und Städten im Norden Europas. Vom zwölften bis zum "
     "sechzehnten Jahrhundert prägte sie den Handel an Nord- und Ostsee. Lübeck galt als wichtigste Stadt des "
     "Bundes, und viele Backsteinbauten erinnern noch heute an diese Zeit."),
    ("science", "de", "Photosynthese ist der Vorgang, bei dem Pflanzen mit Hilfe von Licht aus Wasser und "
     "Kohlendioxid Zucker herstellen. Dabei wird Sauerstoff frei. Das grüne Chlorophyll in den Blättern nimmt das "
     "Licht auf, vor allem im roten und blauen Bereich."),
    ("finance", "es", "Un fondo de emergencia es un ahorro reservado para gastos imprevistos, como una reparación "
     "del coche o la pérdida del empleo. Muchas personas intentan reunir el equivalente a tres o seis meses de "
     "gastos y guardarlo en una cuenta de fácil acceso."),
    ("law", "es", "Un testamento permite decidir cómo se repartirán los bienes de una persona después de su "
     "muerte. Para que sea válido debe cumplir los requisitos de la ley del país, por ejemplo la firma ante notario. "
     "Conviene revisarlo cuando cambia la situación familiar."),
    ("software", "es", "Una copia de seguridad protege los archivos frente a fallos del disco, robos o errores. "
     "Una regla sencilla es guardar tres copias, en dos soportes distintos, y una de ellas fuera de casa. Conviene "
     "comprobar de vez en cuando que las copias se pueden restaurar."),
    ("science", "es", "Las estaciones del año se deben a la inclinación del eje de la Tierra y no a la distancia "
     "al Sol. Cuando un hemisferio está inclinado hacia el Sol, recibe la luz de forma más directa y durante más "
     "horas, y allí es verano."),
    ("history", "es", "La Alhambra de Granada fue construida principalmente en los siglos trece y catorce por la "
     "dinastía nazarí. El conjunto reúne palacios, jardines y una fortaleza. En 1492 la ciudad pasó a los Reyes "
     "Católicos, que conservaron gran parte de los edificios."),
    ("consumer", "es", "Antes de alquilar un piso conviene leer el contrato con calma, comprobar el estado de la "
     "vivienda y hacer fotos de los muebles y las paredes. Así será más fácil recuperar la fianza al final del "
     "alquiler si surge algún desacuerdo."),
    ("news", "es", "El ayuntamiento ha abierto el plazo para inscribirse en los cursos de natación del verano. Las "
     "plazas se asignan por orden de inscripción y las clases comenzarán la primera semana de julio en la piscina "
     "municipal, de lunes a viernes por la mañana."),
    ("health", "es", "Beber suficiente agua es importante, sobre todo con calor o al hacer ejercicio. La sed es una "
     "buena señal para la mayoría de las personas sanas, aunque los mayores pueden sentirla menos y deben beber con "
     "regularidad a lo largo del día."),
    ("software", "es", "Una contraseña segura es larga y no se repite en otros servicios. Un gestor de contraseñas "
     "ayuda a crear y guardar claves distintas para cada cuenta, y la verificación en dos pasos añade otra "
     "protección si alguien roba una contraseña."),
    ("law", "es", "En muchos países el periodo de prueba de un contrato de trabajo permite a ambas partes terminar "
     "la relación con menos requisitos. Su duración máxima la fija la ley o el convenio colectivo, y debe constar "
     "por escrito en el contrato."),
    ("finance", "fr", "Un crédit immobilier se rembourse par mensualités qui comprennent une part de capital et une "
     "part d'intérêts. Au début du prêt, les intérêts représentent une grande partie de chaque mensualité. Comparer "
     "le taux annuel effectif global aide à choisir entre plusieurs offres."),
    ("law", "fr", "Le droit d'auteur protège une œuvre originale dès sa création, sans formalité de dépôt. Il "
     "comprend des droits moraux, comme le respect du nom de l'auteur, et des droits patrimoniaux, qui permettent "
     "d'autoriser la reproduction et la diffusion de l'œuvre."),
    ("software", "fr", "Un tableur permet de calculer automatiquement des totaux et des moyennes à partir de "
     "cellules. Une formule commence par le signe égal et peut faire référence à d'autres cellules. Quand une valeur "
     "change, tous les résultats qui en dépendent sont recalculés."),
    ("science", "fr", "L'arc-en-ciel apparaît quand la lumière du soleil traverse des gouttes de pluie. Chaque "
     "goutte réfracte et réfléchit la lumière, et les couleurs se séparent parce qu'elles ne sont pas déviées de la "
     "même façon. On le voit le dos tourné au soleil."),
    ("history", "fr", "La Révolution française commence en 1789 avec la réunion des États généraux et la prise de "
     "la Bastille. La Déclaration des droits de l'homme et du citoyen est adoptée la même année. La monarchie est "
     "abolie en 1792 et la République proclamée."),
    ("consumer", "fr", "Pour choisir un matelas, il faut tenir compte de sa fermeté, de sa taille et de la position "
     "dans laquelle on dort. Essayer le matelas en magasin pendant quelques minutes aide à se décider. Un bon "
     "matelas dure en général une dizaine d'années."),
    ("news", "fr", "La mairie informe les habitants que le marché du samedi sera déplacé sur la place de la gare "
     "pendant les travaux de la rue principale. Les commerçants habituels seront présents aux mêmes horaires, de "
     "huit heures à midi."),
    ("health", "fr", "Marcher trente minutes par jour améliore la condition physique et aide à garder un poids "
     "stable. Il n'est pas nécessaire de marcher vite : l'important est la régularité. Un bon équipement, surtout "
     "des chaussures adaptées, évite les douleurs."),
    ("history", "fr", "Le canal de Suez a été inauguré en 1869 après dix ans de travaux. Il relie la mer "
     "Méditerranée à la mer Rouge et évite aux navires de contourner l'Afrique. Il a été nationalisé par l'Égypte "
     "en 1956."),
    ("news", "fr", "La bibliothèque municipale propose désormais le prêt de jeux de société. Chaque abonné peut "
     "emprunter deux jeux pour trois semaines. Les jeux sont présentés au premier étage, à côté de l'espace "
     "jeunesse."),
)
"""(topic, language, text) of each neutral page."""

NEUTRAL_PAGES_PT: tuple[tuple[str, str, str], ...] = (
    ("news", "pt", "A prefeitura anunciou nesta terça-feira que as obras de recapeamento da avenida principal "
     "começam no dia 15 e devem durar três semanas. Segundo a secretaria de obras, o trânsito será desviado pelas "
     "ruas paralelas durante a noite. Os ônibus mantêm os pontos de parada habituais, informou a empresa "
     "responsável pelo transporte coletivo."),
    ("town", "pt", "Câmara Municipal: atendimento ao munícipe. O balcão único funciona de segunda a sexta-feira, "
     "das 9h00 às 17h00, no rés-do-chão dos Paços do Concelho. Para pedir uma licença de obras, entregue o "
     "requerimento com a planta do imóvel e o documento de identificação. Os pedidos também podem ser feitos no "
     "portal do município, e a resposta chega por correio eletrónico no prazo de trinta dias úteis."),
    ("recipe", "pt", "Bolo de cenoura. Bata no liquidificador três cenouras médias, três ovos e meia xícara de "
     "óleo. Numa tigela, misture duas xícaras de farinha de trigo e uma xícara e meia de açúcar, junte o creme e por "
     "fim uma colher de sopa de fermento. O segredo de um bolo fofinho é não bater demais a massa depois do "
     "fermento. Asse em forma untada a 180 graus por cerca de 40 minutos e cubra com chocolate derretido."),
    ("software", "pt", "Instalação. Baixe o instalador da versão estável na página de lançamentos do projeto e "
     "execute-o; no Windows, clique em Avançar até o fim. Em Linux, use o gerenciador de pacotes da sua "
     "distribuição. Depois de instalado, abra um terminal e rode o comando com a opção de ajuda para ver a lista de "
     "subcomandos. O arquivo de configuração fica na pasta do usuário e pode ser editado em qualquer editor de "
     "texto; as mudanças valem na próxima execução do programa."),
    ("health", "pt", "A vacina contra a gripe é recomendada todos os anos a pessoas com mais de 65 anos, grávidas e "
     "doentes crónicos. A vacinação é gratuita nos centros de saúde para estes grupos e deve ser feita de "
     "preferência até ao fim de novembro. Os efeitos secundários mais comuns são dor no local da injeção e febre "
     "ligeira, que passam em um ou dois dias."),
    ("finance", "pt", "O Tesouro Direto permite que pessoas físicas comprem títulos públicos federais pela "
     "internet. O Tesouro Selic acompanha a taxa básica de juros e é indicado para a reserva de emergência, porque "
     "pode ser resgatado em qualquer dia útil com pouca oscilação. Já os títulos prefixados têm rentabilidade "
     "definida na compra, mas perdem valor se os juros subirem antes do vencimento."),
    ("history", "pt", "A Revolução dos Cravos, a 25 de Abril de 1974, pôs fim ao regime do Estado Novo em "
     "Portugal. O golpe foi conduzido por oficiais do Movimento das Forças Armadas e quase não houve violência; a "
     "população saiu à rua e colocou cravos nos canos das espingardas. Acabaram a censura e a polícia política, e em "
     "1976 foi aprovada uma nova Constituição democrática."),
    ("science", "pt", "O arco-íris aparece quando a luz do sol atravessa gotas de chuva. Ao entrar na gota, a luz "
     "sofre refração, reflete na parte de trás e sai novamente, separando-se nas cores do espectro porque cada "
     "comprimento de onda se desvia num ângulo um pouco diferente. Por isso o arco-íris só é visto com o sol às "
     "costas de quem olha."),
)
"""(topic, language, text) of eight neutral Portuguese pages (Brazilian and European): news, a town hall
page, a recipe, software docs, health, finance, history, science."""
